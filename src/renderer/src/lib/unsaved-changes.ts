import { useEffect, useSyncExternalStore } from 'react';

/** How the prompt asks, for what would be lost that is not a draft (a secret shown once). */
export interface LeaveWording {
  readonly title: string;
  readonly description: string;
  readonly stay: string;
  readonly leave: string;
}

/** A navigation held until the user decides: which screen's changes it would drop, and how to carry it out. */
export interface PendingLeave {
  readonly screen: string;
  readonly wording?: LeaveWording;
  readonly proceed: () => void;
}

/** What a mounted screen would lose: its name in the prompt, and the prompt's words when not the usual ones. */
interface Hold {
  readonly screen: string;
  readonly wording?: LeaveWording;
}

// The screens mounted with unsaved changes (in the order they became unsaved).
const unsaved = new Map<symbol, Hold>();
let pending: PendingLeave | undefined;
const listeners = new Set<() => void>();
const publish = (): void => listeners.forEach((listener) => listener());

function onBeforeUnload(event: BeforeUnloadEvent): void {
  // The browser asks with its own words: a page may no longer supply them.
  event.preventDefault();
}

/**
 * Marks the calling screen as holding unsaved changes while it is mounted: leaving it asks first, in
 * `wording` when given (it must be a stable object: a new one re-registers the hold).
 */
export function useUnsavedChanges(screen: string, wording?: LeaveWording): void {
  useEffect(() => {
    const id = Symbol(screen);
    unsaved.set(id, { screen, wording });
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
  }, [screen, wording]);
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
  const hold = [...unsaved.values()].at(-1);
  if (hold === undefined) {
    proceed();
    return;
  }
  pending = { ...hold, proceed };
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
