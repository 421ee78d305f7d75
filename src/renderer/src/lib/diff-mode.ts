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

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The diff layout, re-rendering when it changes. */
export function useDiffMode(): DiffMode {
  return useSyncExternalStore(subscribe, current);
}

/** Toggles between split and unified. */
export function toggleDiffMode(): void {
  setDiffMode(current() === 'split' ? 'unified' : 'split');
}

const WHITESPACE_KEY = 'gatehouse.diff-hide-whitespace';

function hidingWhitespace(): boolean {
  return localStorage.getItem(WHITESPACE_KEY) === 'true';
}

/** Sets whether diffs show lines that differ only in whitespace as unchanged (a preference, kept across sessions). */
export function setHideWhitespace(hide: boolean): void {
  localStorage.setItem(WHITESPACE_KEY, String(hide));
  listeners.forEach((listener) => listener());
}

/** Whether diffs hide whitespace changes, re-rendering when it changes. */
export function useHideWhitespace(): boolean {
  return useSyncExternalStore(subscribe, hidingWhitespace);
}
