import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayAdmin, startTempServers, type TempServers } from '../support/temp-servers.js';

interface AuditEvent {
  readonly action: string;
  readonly details: Record<string, unknown>;
}

/**
 * A save of the PII, content-policy, cache or model settings that changes nothing writes nothing: no
 * audit event and no move from the configuration file to the database, so later edits of the file
 * still apply. A save that changes something records the settings before and after.
 */
describe('saving settings that change nothing', () => {
  let servers: TempServers;
  beforeAll(async () => {
    servers = await startTempServers({ cache: { enabled: true, ttl_seconds: 600 } });
  });
  afterAll(async () => servers?.stop());

  const admin = gatewayAdmin(() => servers);
  const actions = async (prefix: string): Promise<AuditEvent[]> =>
    ((await admin('GET', '/internal/audit?limit=1000')).body.data as AuditEvent[]).filter((event) =>
      event.action.startsWith(prefix),
    );
  /** The settings of a view, as a save sends them. */
  const sendable = (view: Record<string, unknown>) => {
    const { source: _source, updated_at: _updated, ...settings } = view;
    return settings;
  };

  for (const [path, prefix] of [
    ['/internal/pii', 'pii.'],
    ['/internal/content-policy', 'content_policy.'],
  ] as const)
    it(`${path}: nothing recorded nor moved for {}, the values in force or a reset to the file`, async () => {
      const initial = (await admin('GET', path)).body;
      expect(initial.source).toBe('config');
      for (const body of [{}, sendable(initial), { reset: true }]) {
        const saved = await admin('PUT', path, body);
        expect(saved.status).toBe(200);
        expect(saved.body).toEqual(initial);
      }
      expect(await actions(prefix)).toEqual([]);

      // A real change is recorded with the settings before and after, and where they now come from.
      const change = prefix === 'pii.' ? { mode: 'redact' } : { blocked_patterns: ['pineapple'] };
      const changed = await admin('PUT', path, change);
      expect(changed.body).toMatchObject({ ...change, source: 'database' });
      const [update] = await actions(prefix);
      expect(update!.details).toEqual({
        before: sendable(initial),
        after: sendable(changed.body),
        source: { before: 'config', after: 'database' },
      });
      // Sent again: still one event, and the time of the stored settings stays.
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect((await admin('PUT', path, change)).body).toEqual(changed.body);
      expect(await actions(prefix)).toHaveLength(1);
      // Back to the file: recorded once; a second reset changes nothing.
      expect((await admin('PUT', path, { reset: true })).body).toEqual(initial);
      expect((await admin('PUT', path, { reset: true })).body).toEqual(initial);
      expect((await actions(prefix)).map((event) => event.action)).toEqual([`${prefix}reset`, `${prefix}update`]);
    });

  it('/internal/cache: nothing recorded nor moved for {} or the values in force; a change records before and after', async () => {
    const initial = (await admin('GET', '/internal/cache')).body;
    expect(initial.source).toBe('config');
    for (const body of [{}, initial.settings, { reset: true }]) {
      const saved = await admin('PUT', '/internal/cache', body);
      expect(saved.status).toBe(200);
      expect(saved.body).toMatchObject({ settings: initial.settings, source: 'config', updated_at: null, purged: 0 });
    }
    expect(await actions('cache.')).toEqual([]);

    const changed = await admin('PUT', '/internal/cache', { ttl_seconds: 300 });
    expect(changed.body).toMatchObject({ source: 'database', settings: { ttl_seconds: 300 } });
    const [update] = await actions('cache.');
    expect(update).toMatchObject({ action: 'cache.update' });
    expect(update!.details).toEqual({
      before: initial.settings,
      after: changed.body.settings,
      source: { before: 'config', after: 'database' },
      purged: 0,
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const again = await admin('PUT', '/internal/cache', { ttl_seconds: 300 });
    expect(again.body).toMatchObject({ updated_at: changed.body.updated_at, purged: 0 });
    expect(await actions('cache.')).toHaveLength(1);
    await admin('PUT', '/internal/cache', { reset: true });
    await admin('PUT', '/internal/cache', { reset: true });
    expect((await actions('cache.')).map((event) => event.action)).toEqual(['cache.reset', 'cache.update']);
  });

  it('/internal/models: {} or the values in force record nothing and leave the settings read from the file', async () => {
    const initial = (await admin('GET', '/internal/models')).body;
    expect(initial.source).toBe('config');
    const { allowed_models, model_aliases, per_model_max_tokens, default_embedding_model } = initial;
    for (const body of [{}, { allowed_models, model_aliases, per_model_max_tokens, default_embedding_model }]) {
      const saved = await admin('PUT', '/internal/models', body);
      expect(saved.status).toBe(200);
      expect(saved.body).toEqual(initial);
    }
    expect(await actions('models.')).toEqual([]);
    const changed = await admin('PUT', '/internal/models', {
      model_aliases: { ...model_aliases, quick: allowed_models[0] },
    });
    expect(changed.body.source).toBe('database');
    expect(await actions('models.')).toHaveLength(1);
  });
});
