import { useEffect, useRef } from 'react';
import { isTypingTarget } from './use-list-navigation.js';

/** "/" focuses the screen's filter field (as in GitHub and Gmail); returns the ref to put on it. */
export function useFilterShortcut() {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      if (event.key !== '/' || isTypingTarget(event.target) || document.querySelector('dialog[open]')) return;
      event.preventDefault();
      ref.current?.focus();
      ref.current?.select();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return ref;
}
