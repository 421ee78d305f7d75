import { useSyncExternalStore } from 'react';

/** The user's theme choice; `system` follows the OS. */
export type ThemeChoice = 'system' | 'light' | 'dark';

const STORAGE_KEY = 'gatehouse.theme';
const media = window.matchMedia('(prefers-color-scheme: dark)');
const listeners = new Set<() => void>();

function stored(): ThemeChoice {
  const value = localStorage.getItem(STORAGE_KEY);
  return value === 'light' || value === 'dark' ? value : 'system';
}

/** The theme in effect for a choice. */
function resolve(choice: ThemeChoice): 'light' | 'dark' {
  if (choice === 'system') return media.matches ? 'dark' : 'light';
  return choice;
}

/** Sets `data-theme` on the document root; the CSS variables follow it. */
export function applyTheme(): void {
  document.documentElement.dataset.theme = resolve(stored());
}

/** Stores and applies a theme choice. */
export function setTheme(choice: ThemeChoice): void {
  if (choice === 'system') localStorage.removeItem(STORAGE_KEY);
  else localStorage.setItem(STORAGE_KEY, choice);
  applyTheme();
  listeners.forEach((listener) => listener());
}

/** Flips between light and dark (leaving "system"). */
export function toggleTheme(): void {
  setTheme(resolve(stored()) === 'dark' ? 'light' : 'dark');
}

media.addEventListener('change', () => {
  applyTheme();
  listeners.forEach((listener) => listener());
});

/** The theme in effect, re-rendering when it changes. */
export function useTheme(): 'light' | 'dark' {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => resolve(stored()),
  );
}
