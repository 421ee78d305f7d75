import { useLayoutEffect, useRef, type RefObject } from 'react';

const FIELD = 'input:not([type="hidden"]):not([disabled]), select:not([disabled]), textarea:not([disabled])';
const FOCUSABLE = `${FIELD}, button:not([disabled]), a[href], [tabindex]:not([tabindex="-1"])`;

const usable = (element: Element | null): element is HTMLElement =>
  element instanceof HTMLElement && element.checkVisibility();

/**
 * Where a dialog's focus starts: its first field, else its primary action, else its first footer
 * button. Never the header's Close button, which `showModal()` picks on its own as the first
 * focusable element (React's `autoFocus` cannot help: it runs while the dialog is still closed).
 */
function initialFocus(dialog: HTMLDialogElement): HTMLElement | undefined {
  const candidates = [
    ...dialog.querySelectorAll(`.dialog-body :is(${FIELD})`),
    ...dialog.querySelectorAll('.btn-primary:not([disabled])'),
    ...dialog.querySelectorAll('.dialog-footer button:not([disabled])'),
  ];
  return candidates.find(usable);
}

/**
 * The element to give focus back to when the dialog closes: the one that opened it, or, when that is
 * gone by then (a revoked key's row), the focusable list or table it was in.
 */
function returnTarget(opener: Element | null): () => HTMLElement | undefined {
  const container = opener?.parentElement?.closest(FOCUSABLE) ?? null;
  return () => [opener, container].find((element) => usable(element) && element.isConnected) as HTMLElement | undefined;
}

/**
 * Opens the dialog modally with focus on its first field (or primary action), and on close gives
 * focus back to what opened it instead of dropping it on the page's body. When the opener and the
 * list it was in are gone by then, `fallback` names where focus goes instead.
 */
export function useModalFocus(
  ref: RefObject<HTMLDialogElement | null>,
  fallback?: () => HTMLElement | null | undefined,
): void {
  const latestFallback = useRef(fallback);
  useLayoutEffect(() => {
    latestFallback.current = fallback;
  });
  // A layout effect: its clean-up runs while the dialog is still in the document, so the focus can
  // be handed back before the element is removed.
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const back = returnTarget(document.activeElement);
    if (!dialog.open) dialog.showModal();
    initialFocus(dialog)?.focus();
    return () => {
      dialog.close();
      back()?.focus();
      // The update that closes the dialog often removes its opener too (a deleted row, a preview
      // that was used), later in the same commit: once it is done, focus left on the body moves on.
      queueMicrotask(() => {
        if (dialog.open || (document.activeElement && document.activeElement !== document.body)) return;
        const target = back() ?? latestFallback.current?.();
        if (usable(target ?? null)) target!.focus();
      });
    };
  }, [ref]);
}
