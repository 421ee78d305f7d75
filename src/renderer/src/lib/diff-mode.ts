import { useSyncExternalStore } from 'react';

/** How diffs are laid out. */
export type DiffMode = 'split' | 'unified';

const STORAGE_KEY = 'gatehouse.diff-mode';
const listeners = new Set<() => void>();

function current(): DiffMode {
  return localStorage.getItem(STORAGE_KEY) === 'unified' ? 'unified' : 'split';
}

/** Sets the diff layout everywhere (it is a preference, kept across sessions). */
export function setDiffMode(mode: DiffMode): void {
  localStorage.setItem(STORAGE_KEY, mode);
  listeners.forEach((listener) => listener());
}

/** The diff layout, re-rendering when it changes. */
export function useDiffMode(): DiffMode {
  return useSyncExternalStore((listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, current);
}

/** Toggles between split and unified. */
export function toggleDiffMode(): void {
  setDiffMode(current() === 'split' ? 'unified' : 'split');
}
