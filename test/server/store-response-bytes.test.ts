import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config/load.js';

// A whole state is built as one string; escaping can make its JSON six times its contents, so a bound
// above 64 MiB could let a state pass the longest string V8 holds and fail as a 500 instead of a 413.

describe('store.limits.response_bytes', () => {
  it('defaults to 64 MiB and takes smaller values', () => {
    expect(loadConfig({ env: {} }).config.store.limits.response_bytes).toBe(64 * 1024 * 1024);
    const config = loadConfig({ env: {}, overrides: { store: { limits: { response_bytes: 4096 } } } }).config;
    expect(config.store.limits.response_bytes).toBe(4096);
  });

  it('refuses a bound above 64 MiB, naming the key', () => {
    expect(() => loadConfig({ env: {}, overrides: { store: { limits: { response_bytes: 2 ** 30 } } } })).toThrow(
      'store.limits.response_bytes: must be at most 67108864 (64 MiB); larger states are read in pages',
    );
  });

  it('bounds body_bytes alike, which also sizes a page of the log', () => {
    expect(() => loadConfig({ env: {}, overrides: { store: { limits: { body_bytes: 256 * 1024 * 1024 } } } })).toThrow(
      'store.limits.body_bytes: must be at most 67108864 (64 MiB)',
    );
    const config = loadConfig({ env: {}, overrides: { store: { limits: { body_bytes: 64 * 1024 * 1024 } } } }).config;
    expect(config.store.limits.body_bytes).toBe(64 * 1024 * 1024);
  });
});
