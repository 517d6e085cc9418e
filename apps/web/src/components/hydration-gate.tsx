import type { ReactNode } from 'react';
import { useClientValue } from '@/hooks/use-client-value';

/**
 * Holds a form's controls disabled while React hydrates its prerendered HTML
 * (app/prerendered-pages.ts): before the app runs them, nothing could be
 * typed only to be lost, and the browser could not send the form itself.
 * From the first render after hydration, and in every render that is not a
 * hydration, they are enabled. `display: contents` (layout.css), so the
 * fieldset adds no box.
 */
export const HydrationGate = ({ children }: { children: ReactNode }) => {
  const hydrating = useClientValue(() => false, true);
  return (
    <fieldset className="hydration-gate" disabled={hydrating}>
      {children}
    </fieldset>
  );
};
