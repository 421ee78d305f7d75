import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * How long a kept answer may be replayed: each reader's own time to live bounds the age of what it is
 * given (a shared team entry stored under a longer one included, and entries kept before the time to
 * live was lowered), and turning the cache off forgets every kept answer.
 */
describe('cache: the time to live is a maximum age at every lookup', () => {
  let h: GatewayHarness;
  const keys: Record<'long' | 'short', { id: string; key: string }> = {} as never;

  beforeAll(async () => {
    h = await startGatewayHarness({ cache: { enabled: true, ttl_seconds: 600 } });
    for (const name of ['long', 'short'] as const) {
      const created = await h.issueKey({ scopes: ['chat'], team: 'lifetime' });
      keys[name] = { id: created.id, key: created.key };
    }
  });
  beforeEach(async () => {
    h.openai.reset();
    await h.admin('PUT', '/internal/cache', { reset: true });
    await h.admin('POST', '/internal/cache/purge', {});
  });
  afterAll(async () => h?.close());

  const hit = async (name: 'long' | 'short', content: string): Promise<string | null> =>
    (
      await h
        .openaiClient(keys[name].key)
        .chat.completions.create({ model: 'gpt-4o-mini', temperature: 0, messages: [{ role: 'user', content }] })
        .withResponse()
    ).response.headers.get('x-cache-hit');

  it("a key's ttl_seconds applies to the team entry another key stored with a longer one", async () => {
    await h.admin('PUT', '/internal/cache', { keys: { [keys.short.id]: { ttl_seconds: 1 } } });
    expect(await hit('long', 'shared answer')).toBe('false');
    expect(await hit('short', 'shared answer')).toBe('true');
    await sleep(1_200);
    expect(await hit('short', 'shared answer')).toBe('false');
    expect(h.openai.requests).toHaveLength(2);
  });

  it('a lowered ttl_seconds applies to the answers kept before', async () => {
    expect(await hit('long', 'kept for long')).toBe('false');
    await sleep(1_200);
    const lowered = await h.admin('PUT', '/internal/cache', { ttl_seconds: 1 });
    expect(lowered.status).toBe(200);
    expect(await hit('long', 'kept for long')).toBe('false');
    expect(h.openai.requests).toHaveLength(2);
    // Older than every time to live now in force: no reader could be given it, so it is gone.
    expect(lowered.body).toMatchObject({ purged: 1, stats: { entries: 0 } });
  });

  it('turning the cache off forgets the kept answers: on again, they are not replayed', async () => {
    expect(await hit('long', 'before the switch')).toBe('false');
    expect(await hit('long', 'before the switch')).toBe('true');
    const off = await h.admin('PUT', '/internal/cache', { enabled: false });
    expect(await hit('long', 'before the switch')).toBeNull();
    await h.admin('PUT', '/internal/cache', { enabled: true });
    expect(await hit('long', 'before the switch')).toBe('false');
    expect(h.openai.requests).toHaveLength(3);
    expect(off.body).toMatchObject({ purged: 1, stats: { entries: 0 } });
    const audit = (await h.admin('GET', '/internal/audit?action=cache.update')).body.data;
    expect(audit.find((event: any) => event.details.after.enabled === false)?.details).toMatchObject({ purged: 1 });
  });
});
