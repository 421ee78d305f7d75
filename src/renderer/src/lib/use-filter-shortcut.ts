import { useEffect, useRef } from 'react';
import { isTypingTarget } from './use-list-navigation.js';

/** The lists and tables a filter can hand focus to. */
const LIST_SELECTOR = '[role="listbox"], [role="grid"], table[tabindex]';

/** Empties a filter field as typing would, so the screen's own `onChange` hears it and updates the address. */
function clearField(input: HTMLInputElement): void {
  // React tracks the value it last set: assigning through the prototype's setter makes the input event a change.
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, '');
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

/** The list a filter narrows: the one it names (`aria-controls`), else the first after it on its screen. */
function listOf(input: HTMLInputElement): HTMLElement | undefined {
  const named = input.getAttribute('aria-controls');
  const controlled = named ? document.getElementById(named) : null;
  if (controlled) return controlled;
  const screen = input.closest('main') ?? document.body;
  return [...screen.querySelectorAll<HTMLElement>(LIST_SELECTOR)].find(
    (list) => input.compareDocumentPosition(list) & Node.DOCUMENT_POSITION_FOLLOWING,
  );
}

/**
 * "/" focuses the screen's filter field (as in GitHub and Gmail); returns the ref to put on it. In the
 * field, Esc empties it, and Esc on an empty field goes back to the list it filters, at its highlighted
 * row: the same two steps on every screen, and never a filter lost to one stray key.
 */
export function useFilterShortcut() {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      if (event.key !== '/' || isTypingTarget(event.target) || document.querySelector('dialog[open]')) return;
      event.preventDefault();
      ref.current?.focus();
      ref.current?.select();
    };
    // Captured before the screen's own Esc (a drawer closing on it) sees it: in the filter, Esc is the filter's.
    const onEscape = (event: KeyboardEvent): void => {
      const input = ref.current;
      if (event.key !== 'Escape' || !input || event.target !== input || event.isComposing) return;
      event.preventDefault();
      event.stopPropagation();
      if (input.value) clearField(input);
      else listOf(input)?.focus();
    };
    window.addEventListener('keydown', onKey);
    window.addEventListener('keydown', onEscape, true);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('keydown', onEscape, true);
    };
  }, []);
  return ref;
}
