import { useEffect, useRef } from 'react';

/**
 * Shows the native <dialog> behind the returned ref as a modal while `open`
 * is true (the browser makes the rest of the page inert) and closes it when
 * `open` turns false, giving focus back to where it was before. Browsers
 * without showModal (and jsdom) get the `open` attribute instead.
 */
export const useModalDialog = (open: boolean) => {
  const ref = useRef<HTMLDialogElement>(null);
  const returnFocus = useRef<HTMLElement | null>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      const active = document.activeElement;
      returnFocus.current =
        active instanceof HTMLElement && !dialog.contains(active)
          ? active
          : null;
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
    } else if (!open && dialog.open) {
      if (typeof dialog.close === 'function') dialog.close();
      else dialog.removeAttribute('open');
      returnFocus.current?.focus();
      returnFocus.current = null;
    }
  }, [open]);

  return ref;
};
