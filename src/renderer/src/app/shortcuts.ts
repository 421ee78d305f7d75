import { useEffect } from 'react';
import { toggleTheme } from '../lib/theme.js';
import { isTypingTarget } from '../lib/use-list-navigation.js';
import { GO_TO_KEYS } from './go-to-keys.js';

/** The app-wide shortcuts: "g x" navigation, "?" for help, "Shift+T" for the theme. */
export function useGlobalShortcuts(go: (path: string) => void, showHelp: () => void): void {
  useEffect(() => {
    let pendingG = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onKey = (event: KeyboardEvent): void => {
      if (isTypingTarget(event.target) || event.metaKey || event.ctrlKey || event.altKey) return;
      if (document.querySelector('dialog[open]')) return;
      if (pendingG) {
        pendingG = false;
        clearTimeout(timer);
        const target = GO_TO_KEYS[event.key];
        if (target) {
          event.preventDefault();
          go(target.path);
        }
        return;
      }
      if (event.key === 'g') {
        pendingG = true;
        timer = setTimeout(() => (pendingG = false), 1200);
      } else if (event.key === '?') {
        event.preventDefault();
        showHelp();
      } else if (event.key === 'T') {
        toggleTheme();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
      clearTimeout(timer);
    };
  }, [go, showHelp]);
}
