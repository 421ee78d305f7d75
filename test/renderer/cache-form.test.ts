import { describe, expect, it } from 'vitest';
import { cacheSettingsUpdateSchema, type CacheSettings } from '../../src/shared/cache-api.js';
import { cacheDraftOf, cacheUpdateOf } from '../../src/renderer/src/features/gateway/cache-form.js';

const settings: CacheSettings = {
  enabled: true,
  ttl_seconds: 300,
  sampled: false,
  max_entries: 100,
  max_bytes: 1_048_576,
  max_entry_bytes: 65_536,
  models: { 'gpt-4o': { enabled: false } },
  keys: { key_1: { ttl_seconds: 60 } },
};

describe('cache form', () => {
  it('round-trips the settings in force into an update the admin API accepts', () => {
    const { update, error } = cacheUpdateOf(cacheDraftOf(settings));
    expect(error).toBeUndefined();
    expect(update).toEqual(settings);
    expect(cacheSettingsUpdateSchema.safeParse(update).success).toBe(true);
  });

  it('names the field of a number that is not whole, or rules that are not JSON or not rules', () => {
    const draft = cacheDraftOf(settings);
    expect(cacheUpdateOf({ ...draft, ttl_seconds: '1.5' }).error).toBe('ttl_seconds must be a whole number');
    expect(cacheUpdateOf({ ...draft, max_bytes: '' }).error).toBe('max_bytes must be a whole number');
    expect(cacheUpdateOf({ ...draft, models: '{gpt' }).error).toMatch(/^models must be JSON/);
    expect(cacheUpdateOf({ ...draft, keys: '{"key_1": {"enabled": "no"}}' }).error).toMatch(/^keys\.key_1\.enabled: /);
    expect(cacheUpdateOf({ ...draft, keys: '' }).update?.keys).toEqual({});
  });
});
