import { useSyncExternalStore } from 'react';

/**
 * A mouse or trackpad that can hover: the device most likely has a physical
 * keyboard, with a Shift key. Phones and tablets (touch) do not match.
 */
export const PHYSICAL_KEYBOARD_QUERY = '(hover: hover) and (pointer: fine)';

const query = (): MediaQueryList | null =>
  typeof window !== 'undefined' && typeof window.matchMedia === 'function'
    ? window.matchMedia(PHYSICAL_KEYBOARD_QUERY)
    : null;

const subscribe = (onChange: () => void) => {
  const list = query();
  list?.addEventListener('change', onChange);
  return () => list?.removeEventListener('change', onChange);
};

const read = () => query()?.matches ?? false;

/**
 * Whether a physical keyboard is likely (PHYSICAL_KEYBOARD_QUERY), following
 * changes (a tablet docked to a keyboard and a mouse). False while rendering
 * ahead of time and where the browser cannot tell: a hint about keys then
 * stays hidden rather than shown on a phone.
 */
export const usePhysicalKeyboard = (): boolean =>
  useSyncExternalStore(subscribe, read, () => false);
