import type OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';

/**
 * Who may be answered from whose cache, and the controls over it: tenants never share an answer,
 * Cache-Control bypasses, time to live, per-key and per-model rules, and the admin API's purge and
 * live settings.
 */
describe('response cache scoping and controls', () => {
  let h: GatewayHarness;
  const keys: Record<string, { id: string; key: string }> = {};

  beforeAll(async () => {
    h = await startGatewayHarness({ cache: { enabled: true } });
    for (const [name, team] of [
      ['redA', 'red'],
      ['redB', 'red'],
      ['blue', 'blue'],
      ['soloA', undefined],
      ['soloB', undefined],
    ] as const) {
      const created = await h.issueKey({ scopes: ['chat'], ...(team ? { team } : {}) });
      keys[name] = { id: created.id, key: created.key };
    }
  });
  beforeEach(async () => {
    h.openai.reset();
    h.openai.setDefault({});
    await h.admin('PUT', '/internal/cache', { reset: true });
    await h.admin('POST', '/internal/cache/purge', {});
  });
  afterAll(async () => h.close());

  const ask = (
    name: string,
    content: string,
    headers: Record<string, string> = {},
  ): Promise<{ data: OpenAI.ChatCompletion; response: Response }> =>
    h
      .openaiClient(keys[name]!.key)
      .chat.completions.create(
        { model: 'gpt-4o-mini', temperature: 0, messages: [{ role: 'user', content }] },
        { headers },
      )
      .withResponse();
  const hit = async (name: string, content: string, headers?: Record<string, string>): Promise<string | null> =>
    (await ask(name, content, headers)).response.headers.get('x-cache-hit');

  it("never serves one team's answer to another team's key; keys of one team share", async () => {
    h.openai.setDefault({ reply: { text: 'secret of team red' } });
    expect(await hit('redA', 'same question')).toBe('false');
    h.openai.setDefault({ reply: { text: 'answer for blue' } });
    const blue = await ask('blue', 'same question');
    expect(blue.response.headers.get('x-cache-hit')).toBe('false');
    expect(blue.data.choices[0]!.message.content).toBe('answer for blue');
    const red = await ask('redB', 'same question');
    expect(red.response.headers.get('x-cache-hit')).toBe('true');
    expect(red.data.choices[0]!.message.content).toBe('secret of team red');
    expect(h.openai.requests).toHaveLength(2);
  });

  it('scopes a key without a team to that key alone', async () => {
    expect(await hit('soloA', 'private question')).toBe('false');
    expect(await hit('soloB', 'private question')).toBe('false');
    expect(await hit('soloA', 'private question')).toBe('true');
    expect(await hit('redA', 'private question')).toBe('false');
    expect(h.openai.requests).toHaveLength(3);
  });

  it('Cache-Control: no-cache skips the lookup and refreshes the entry; no-store neither reads nor writes', async () => {
    await ask('redA', 'refresh me');
    h.openai.setDefault({ reply: { text: 'fresher' } });
    const fresh = await ask('redA', 'refresh me', { 'cache-control': 'no-cache' });
    expect(fresh.response.headers.get('x-cache-hit')).toBe('false');
    expect(fresh.data.choices[0]!.message.content).toBe('fresher');
    const after = await ask('redA', 'refresh me');
    expect(after.response.headers.get('x-cache-hit')).toBe('true');
    expect(after.data.choices[0]!.message.content).toBe('fresher');

    h.openai.setDefault({ reply: { text: 'not kept' } });
    const unkept = await ask('redA', 'refresh me', { 'cache-control': 'no-store' });
    expect(unkept.data.choices[0]!.message.content).toBe('not kept');
    expect((await ask('redA', 'refresh me')).data.choices[0]!.message.content).toBe('fresher');
    expect(await hit('redA', 'never stored', { 'cache-control': 'no-store' })).toBe('false');
    expect(await hit('redA', 'never stored')).toBe('false');
    expect(h.openai.requests).toHaveLength(5);
    // The traffic view tells the three apart.
    const traffic = (await h.admin('GET', '/internal/traffic?limit=3&bodies=false')).body.data;
    expect(traffic.map((event: any) => event.cache)).toEqual(['miss', 'bypass', 'hit']);
  });

  it('forgets an answer once its time to live is over', async () => {
    await h.admin('PUT', '/internal/cache', { ttl_seconds: 1 });
    expect(await hit('redA', 'short lived')).toBe('false');
    expect(await hit('redA', 'short lived')).toBe('true');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await hit('redA', 'short lived')).toBe('false');
    expect(h.openai.requests).toHaveLength(2);
  });

  it('a key or a model may turn the cache off (or on, when it is off globally)', async () => {
    await h.admin('PUT', '/internal/cache', { keys: { [keys.soloA!.id]: { enabled: false } } });
    expect(await hit('soloA', 'uncached key')).toBeNull();
    expect(await hit('soloA', 'uncached key')).toBeNull();
    expect(await hit('soloB', 'uncached key')).toBe('false');
    expect(h.openai.requests).toHaveLength(3);

    await h.admin('PUT', '/internal/cache', { keys: {}, models: { 'gpt-4o-mini': { enabled: false } } });
    expect(await hit('soloB', 'uncached model')).toBeNull();

    await h.admin('PUT', '/internal/cache', {
      enabled: false,
      models: { 'gpt-4o-mini': { enabled: true } },
      keys: { [keys.blue!.id]: { enabled: false } },
    });
    expect(await hit('soloB', 'only this model')).toBe('false');
    expect(await hit('soloB', 'only this model')).toBe('true');
    expect(await hit('blue', 'only this model')).toBeNull();
  });

  it('purges through the admin API: by team, then everything', async () => {
    await ask('redA', 'purge me');
    await ask('blue', 'purge me');
    const purged = await h.admin('POST', '/internal/cache/purge', { team: 'red' });
    expect(purged).toMatchObject({ status: 200, body: { purged: 1 } });
    expect(await hit('redA', 'purge me')).toBe('false');
    expect(await hit('blue', 'purge me')).toBe('true');
    const all = await h.admin('POST', '/internal/cache/purge');
    expect(all.body).toEqual({ purged: 2 });
    expect(await hit('blue', 'purge me')).toBe('false');
    const audit = (await h.admin('GET', '/internal/audit?action=cache.purge')).body.data;
    expect(audit[0].details).toMatchObject({ purged: 2 });
  });

  it('keeps admin changes in gateway_settings and reports where the settings came from', async () => {
    const changed = await h.admin('PUT', '/internal/cache', { ttl_seconds: 42, max_entries: 5 });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      source: 'database',
      settings: { ttl_seconds: 42, max_entries: 5, enabled: true },
    });
    const row = h.servers.database.sqlite.prepare("select value from gateway_settings where name = 'cache'").get() as {
      value: string;
    };
    expect(JSON.parse(row.value)).toMatchObject({ ttl_seconds: 42, max_entries: 5 });
    for (let i = 0; i < 7; i += 1) await ask('redA', `bounded ${i}`);
    expect((await h.admin('GET', '/internal/cache')).body.stats.entries).toBe(5);
    const reset = await h.admin('PUT', '/internal/cache', { reset: true });
    expect(reset.body).toMatchObject({ source: 'config', updated_at: null, settings: { ttl_seconds: 300 } });
  });

  it('refuses invalid settings naming the field, and callers without the master key', async () => {
    const zero = await h.admin('PUT', '/internal/cache', { ttl_seconds: 0 });
    expect(zero.status).toBe(400);
    expect(zero.body.error.type).toBe('invalid_request_error');
    expect(zero.body.error.message).toContain('ttl_seconds');
    const rule = await h.admin('PUT', '/internal/cache', { models: { 'gpt-4o-mini': { enabled: 'yes' } } });
    expect(rule.status).toBe(400);
    expect(rule.body.error.message).toContain('enabled');
    const both = await h.admin('PUT', '/internal/cache', { reset: true, enabled: false });
    expect(both.status).toBe(400);
    expect(both.body.error.message).toContain('reset cannot be combined with enabled');
    const entry = await h.admin('PUT', '/internal/cache', { max_bytes: 2048, max_entry_bytes: 4096 });
    expect(entry.status).toBe(400);
    expect(entry.body.error.message).toContain('max_entry_bytes');
    const anonymous = await fetch(`${h.url}/internal/cache/purge`, { method: 'POST' });
    expect(anonymous.status).toBe(401);
    const withApiKey = await fetch(`${h.url}/internal/cache`, {
      headers: { authorization: `Bearer ${keys.redA!.key}` },
    });
    expect(withApiKey.status).toBe(403);
  });
});
