import { useEffect, useSyncExternalStore } from 'react';

/** A navigation held until the user decides: which screen's changes it would drop, and how to carry it out. */
export interface PendingLeave {
  readonly screen: string;
  readonly proceed: () => void;
}

// The screens mounted with unsaved changes, by the name the prompt uses (in the order they became unsaved).
const unsaved = new Map<symbol, string>();
let pending: PendingLeave | undefined;
const listeners = new Set<() => void>();
const publish = (): void => listeners.forEach((listener) => listener());

function onBeforeUnload(event: BeforeUnloadEvent): void {
  // The browser asks with its own words: a page may no longer supply them.
  event.preventDefault();
}

/** Marks the calling screen as holding unsaved changes while it is mounted: leaving it asks first. */
export function useUnsavedChanges(screen: string): void {
  useEffect(() => {
    const id = Symbol(screen);
    unsaved.set(id, screen);
    if (unsaved.size === 1) window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      unsaved.delete(id);
      if (unsaved.size === 0) window.removeEventListener('beforeunload', onBeforeUnload);
    };
  }, [screen]);
}

/** Whether leaving now would drop unsaved changes. */
export function holdsUnsaved(): boolean {
  return unsaved.size > 0;
}

/**
 * Holds a navigation that would drop unsaved changes until {@link resolveLeave} answers. A second one
 * while the first waits takes its place (the latest is what the user did last).
 */
export function askToLeave(proceed: () => void): void {
  const screen = [...unsaved.values()].at(-1);
  if (screen === undefined) {
    proceed();
    return;
  }
  pending = { screen, proceed };
  publish();
}

/** Answers the waiting navigation: `discard` carries it out (the changes are dropped), `keep` drops it. */
export function resolveLeave(answer: 'discard' | 'keep'): void {
  const leave = pending;
  pending = undefined;
  publish();
  if (answer === 'discard') leave?.proceed();
}

/** The navigation waiting for an answer, if any. */
export function usePendingLeave(): PendingLeave | undefined {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => pending,
  );
}
