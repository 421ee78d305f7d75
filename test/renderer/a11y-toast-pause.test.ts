import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  currentToasts,
  holdToast,
  releaseToast,
  showToast,
  TOAST_MS,
} from '../../src/renderer/src/components/toast-store.js';

const shown = (id: number): boolean => currentToasts().some((toast) => toast.id === id);

describe('toasts wait while held (WCAG 2.2.1)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.runAllTimers();
    vi.useRealTimers();
  });

  it('goes after its time when nothing holds it', () => {
    const id = showToast('Saved');
    vi.advanceTimersByTime(TOAST_MS - 1);
    expect(shown(id)).toBe(true);
    vi.advanceTimersByTime(1);
    expect(shown(id)).toBe(false);
  });

  it('stays while the pointer is over it, and runs on from where it stopped on leave', () => {
    const id = showToast('Saved');
    vi.advanceTimersByTime(3000);
    holdToast(id, 'pointer');
    vi.advanceTimersByTime(60_000);
    expect(shown(id)).toBe(true);
    releaseToast(id, 'pointer');
    vi.advanceTimersByTime(TOAST_MS - 3000 - 1);
    expect(shown(id)).toBe(true);
    vi.advanceTimersByTime(1);
    expect(shown(id)).toBe(false);
  });

  it('stays while focus is inside it, even after the pointer leaves', () => {
    const id = showToast('Saved');
    holdToast(id, 'pointer');
    holdToast(id, 'focus');
    releaseToast(id, 'pointer');
    vi.advanceTimersByTime(60_000);
    expect(shown(id)).toBe(true);
    releaseToast(id, 'focus');
    vi.advanceTimersByTime(TOAST_MS);
    expect(shown(id)).toBe(false);
  });

  it('holds only the toast under the pointer', () => {
    const held = showToast('One');
    const other = showToast('Two');
    holdToast(held, 'pointer');
    vi.advanceTimersByTime(TOAST_MS);
    expect(shown(held)).toBe(true);
    expect(shown(other)).toBe(false);
    releaseToast(held, 'pointer');
  });
});
