import { useEffect, useRef } from 'react';

/**
 * Calls `focusStep` whenever the step changes, so a new step starts where the
 * person continues. Not on the first render: arriving on the page must not
 * move focus.
 */
export const useStepFocus = <S>(step: S, focusStep: (step: S) => void) => {
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    focusStep(step);
    // Only on step changes: the forms' identities change on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [step]);
};
