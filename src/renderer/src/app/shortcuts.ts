import { useEffect } from 'react';
import { toggleTheme } from '../lib/theme.js';
import { isTypingTarget } from '../lib/use-list-navigation.js';

/** "g" followed by one of these keys goes to a screen (as in GitHub and Linear). */
export const GO_TO_KEYS: Readonly<Record<string, { readonly path: string; readonly label: string }>> = {
  o: { path: '', label: 'Overview' },
  h: { path: 'store/history', label: 'History' },
  d: { path: 'store/documents', label: 'Documents' },
  c: { path: 'store/compare', label: 'Compare' },
  b: { path: 'store/branches', label: 'Branches' },
  p: { path: 'store/checkpoints', label: 'Checkpoints' },
  t: { path: 'gateway/traffic', label: 'Live traffic' },
  k: { path: 'gateway/keys', label: 'Keys' },
  e: { path: 'gateway/people', label: 'Users & teams' },
  m: { path: 'gateway/models', label: 'Models' },
  u: { path: 'gateway/usage', label: 'Usage' },
  i: { path: 'gateway/guardrails', label: 'PII & policy' },
  l: { path: 'gateway/collections', label: 'Collections' },
};

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
