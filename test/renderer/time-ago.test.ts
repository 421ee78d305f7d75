import { describe, expect, it } from 'vitest';
import { timeAgo } from '../../src/renderer/src/lib/format.js';

const NOW = Date.parse('2026-11-28T12:00:00Z');
const at = (seconds: number): string => new Date(NOW + seconds * 1000).toISOString();

describe('timeAgo', () => {
  it('says the unit a reader would, also just under a unit’s boundary', () => {
    expect(timeAgo(at(3599), NOW)).toBe('in 1 hour');
    expect(timeAgo(at(3569), NOW)).toBe('in 59 minutes');
    expect(timeAgo(at(-86_399), NOW)).toBe('yesterday');
    expect(timeAgo(at(-59.6), NOW)).toBe('1 minute ago');
    expect(timeAgo(at(-30), NOW)).toBe('just now');
    expect(timeAgo(at(-90 * 60), NOW)).toBe('2 hours ago');
  });
});
