// The toasts and their clocks, apart from their rendering (toast.tsx), so the timing is unit tested.

/** How long a toast stays, not counting the time it is held (pointer over it, focus inside). */
export const TOAST_MS = 5000;

/** A toast as the toaster renders it. */
export interface Toast {
  readonly id: number;
  readonly message: string;
}

/** Why a toast is held on screen: each is released on its own (the pointer leaves, focus leaves). */
export type ToastHold = 'pointer' | 'focus';

interface Timer {
  /** Time left while running, counted from `startedAt`. */
  remaining: number;
  startedAt: number;
  handle?: ReturnType<typeof setTimeout>;
  readonly holds: Set<ToastHold>;
}

let toasts: readonly Toast[] = [];
let nextId = 1;
const timers = new Map<number, Timer>();
const listeners = new Set<() => void>();
const emit = (): void => listeners.forEach((listener) => listener());

/** Calls `listener` whenever the toasts change; returns the unsubscribe (for `useSyncExternalStore`). */
export function subscribeToasts(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Takes a toast off the screen now (its Dismiss button). */
export function dismissToast(id: number): void {
  const timer = timers.get(id);
  if (timer) clearTimeout(timer.handle);
  timers.delete(id);
  toasts = toasts.filter((toast) => toast.id !== id);
  emit();
}

function run(id: number, timer: Timer): void {
  timer.startedAt = Date.now();
  timer.handle = setTimeout(() => dismissToast(id), timer.remaining);
}

/** Confirms a completed action for a few seconds ("Rolled back main: revision #14"); returns its id. */
export function showToast(message: string): number {
  const id = nextId++;
  toasts = [...toasts, { id, message }];
  const timer: Timer = { remaining: TOAST_MS, startedAt: 0, holds: new Set() };
  timers.set(id, timer);
  run(id, timer);
  emit();
  return id;
}

/** The toasts on screen, oldest first. */
export function currentToasts(): readonly Toast[] {
  return toasts;
}

/**
 * Stops a toast's clock while the pointer is over it or focus is inside it (WCAG 2.2.1): a message
 * being read, or whose Dismiss button is focused, does not vanish.
 */
export function holdToast(id: number, hold: ToastHold): void {
  const timer = timers.get(id);
  if (!timer) return;
  if (timer.holds.size === 0 && timer.handle !== undefined) {
    clearTimeout(timer.handle);
    timer.handle = undefined;
    timer.remaining = Math.max(0, timer.remaining - (Date.now() - timer.startedAt));
  }
  timer.holds.add(hold);
}

/** Lets a held toast's clock run on from where it stopped once nothing holds it. */
export function releaseToast(id: number, hold: ToastHold): void {
  const timer = timers.get(id);
  if (!timer || !timer.holds.delete(hold) || timer.holds.size > 0) return;
  run(id, timer);
}
