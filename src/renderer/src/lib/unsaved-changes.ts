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
      if (unsaved.size > 0) return;
      window.removeEventListener('beforeunload', onBeforeUnload);
      // Saved while the prompt was open (Save, then a link before the save landed): nothing is left to
      // discard, so the navigation the user asked for goes on instead of a prompt that no longer holds.
      // A microtask, so a screen that only re-registers (a new name) is not taken for one that left.
      queueMicrotask(proceedIfNothingUnsaved);
    };
  }, [screen]);
}

function proceedIfNothingUnsaved(): void {
  if (unsaved.size > 0 || pending === undefined) return;
  const leave = pending;
  pending = undefined;
  publish();
  leave.proceed();
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
