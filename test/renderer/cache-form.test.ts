import { describe, expect, it } from 'vitest';
import { cacheSettingsUpdateSchema, type CacheSettings } from '../../src/shared/cache-api.js';
import { cacheDraftOf, cacheProblems, cacheUpdateOf } from '../../src/renderer/src/features/gateway/cache-form.js';

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
  const draft = cacheDraftOf(settings);

  it('round-trips the settings in force into an update the admin API accepts', () => {
    const { update, errors } = cacheUpdateOf(draft);
    expect(errors).toEqual({});
    expect(update).toEqual(settings);
    expect(cacheSettingsUpdateSchema.safeParse(update).success).toBe(true);
  });

  it('puts each problem on its field, named by its label, with the shared schema’s ranges', () => {
    expect(cacheUpdateOf({ ...draft, ttl_seconds: '1.5' }).errors).toEqual({
      ttl_seconds: 'Time to live must be a whole number',
    });
    expect(cacheUpdateOf({ ...draft, ttl_seconds: '0' }).errors.ttl_seconds).toBe('Time to live must be 1 or more');
    expect(cacheUpdateOf({ ...draft, max_entries: 'many' }).errors.max_entries).toBe(
      'Most answers kept must be a number',
    );
    expect(cacheUpdateOf({ ...draft, max_bytes: '' }).errors.max_bytes).toBe('Memory bound is required');
    expect(cacheUpdateOf({ ...draft, max_bytes: '100' }).errors.max_bytes).toBe('Memory bound must be 1024 or more');
    expect(cacheUpdateOf({ ...draft, models: '{gpt' }).errors.models).toMatch(/^Per-model rules must be JSON/);
    expect(cacheUpdateOf({ ...draft, keys: '{"key_1": {"enabled": "no"}}' }).errors).toEqual({
      keys: 'Per-key rules: key_1.enabled must be a boolean',
    });
    expect(cacheUpdateOf({ ...draft, keys: '{"key_1": {"colour": 1}}' }).errors.keys).toMatch(
      /^Per-key rules: key_1: .*colour/,
    );
    expect(cacheUpdateOf({ ...draft, keys: '' }).update?.keys).toEqual({});
  });

  it('lists every problem, in the order of the fields, with the control to fix it in', () => {
    const { update, errors } = cacheUpdateOf({ ...draft, keys: '[', ttl_seconds: 'x' });
    expect(update).toBeUndefined();
    expect(cacheProblems(errors).map((problem) => problem.fieldId)).toEqual(['cache-ttl', 'cache-keys']);
  });
});
