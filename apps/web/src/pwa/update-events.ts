/**
 * The service worker's news for the UI, kept free of workbox code so the
 * prompt costs the first load almost nothing: register.ts (loaded later)
 * announces an update, the prompt offers to apply it.
 */
export type ApplyUpdate = () => Promise<void>;

type Listener = (apply: ApplyUpdate) => void;
const listeners = new Set<Listener>();
let pending: ApplyUpdate | null = null;

export const announceUpdate = (apply: ApplyUpdate): void => {
  pending = apply;
  for (const l of listeners) l(apply);
};

/** Calls back with the update to apply, at once when one is already waiting. */
export const onUpdateAvailable = (listener: Listener): (() => void) => {
  listeners.add(listener);
  if (pending) listener(pending);
  return () => listeners.delete(listener);
};
