import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';

/**
 * The cache admin API checks the names it is given: a name that cannot exist (empty, overlong, bad
 * characters) is 400 naming the field; a purge of a team, key or model that exists nowhere is 404, a
 * rule for one is 400 (as the guardrails settings answer); nothing changes when a request is refused.
 */
describe('cache admin API: names of models, keys and teams', () => {
  let h: GatewayHarness;
  let key: { id: string; key: string };

  beforeAll(async () => {
    h = await startGatewayHarness({ cache: { enabled: true } });
    const created = await h.issueKey({ scopes: ['chat'], team: 'red' });
    key = { id: created.id, key: created.key };
  });
  beforeEach(async () => {
    await h.admin('PUT', '/internal/models', { reset: true });
    await h.admin('PUT', '/internal/cache', { reset: true });
    await h.admin('POST', '/internal/cache/purge', {});
  });
  afterAll(async () => h.close());

  const fillCache = async (): Promise<void> => {
    await h
      .openaiClient(key.key)
      .chat.completions.create({ model: 'gpt-4o-mini', temperature: 0, messages: [{ role: 'user', content: 'keep' }] });
    expect((await h.admin('GET', '/internal/cache')).body.stats.entries).toBe(1);
  };
  const entries = async (): Promise<number> => (await h.admin('GET', '/internal/cache')).body.stats.entries;
  const expectError = (
    answer: { status: number; body: any; headers: Headers },
    status: number,
    message: string,
  ): void => {
    expect(answer.status).toBe(status);
    expect(answer.headers.get('x-request-id')).toBeTruthy();
    const type = status === 404 ? 'not_found_error' : 'invalid_request_error';
    expect(answer.body).toEqual({ error: { type, message, code: status } });
  };

  it('a purge naming something that cannot exist is 400 naming the field, and purges nothing', async () => {
    await fillCache();
    const cases: [object, string][] = [
      [{ model: '' }, 'model must not be empty'],
      [{ model: 'gpt-4o-mini\u0000' }, 'model must not contain control characters'],
      [{ model: 'm'.repeat(201) }, 'model must be at most 200 characters, got 201 characters'],
      [{ key_id: '' }, 'key_id must not be empty'],
      [{ key_id: 'key one' }, "key_id must be an API key id: letters, digits, _ and - (key_...), got 'key one'"],
      [{ team: 'red team' }, "team must be letters and digits (of any script) and . _ @ + - only, got 'red team'"],
      [{ team: 't'.repeat(201) }, 'team must be at most 200 characters, got 201 characters'],
    ];
    for (const [body, message] of cases)
      expectError(await h.admin('POST', '/internal/cache/purge', body), 400, message);
    expect(await entries()).toBe(1);
  });

  it('a purge naming an unknown team, key or model is 404 naming it; an alias is 400 naming its target', async () => {
    await fillCache();
    const purge = (body: object) => h.admin('POST', '/internal/cache/purge', body);
    expectError(await purge({ team: 'blue' }), 404, "team: no team with id 'blue'");
    expectError(await purge({ key_id: 'key_nope' }), 404, "key_id: no API key with id 'key_nope'");
    expectError(
      await purge({ model: 'gpt-4o-mnii' }),
      404,
      "model: 'gpt-4o-mnii' is not an allowed model (see GET /internal/models)",
    );
    expectError(
      await purge({ team: 'red', model: 'fast' }),
      400,
      "model: 'fast' is not an allowed model; it is an alias: name its target 'gpt-4o-mini'",
    );
    expect(await entries()).toBe(1);
    const audit = (await h.admin('GET', '/internal/audit?action=cache.purge')).body.data;
    expect(audit.every((entry: any) => entry.details.model !== 'gpt-4o-mnii')).toBe(true);
  });

  it('purges by names that exist, and by a model no longer allowed whose answers are still kept', async () => {
    await fillCache();
    const known = await h.admin('POST', '/internal/cache/purge', { team: 'red', key_id: key.id, model: 'demo/echo' });
    expect(known).toMatchObject({ status: 200, body: { purged: 0 } });
    const narrowed = await h.admin('PUT', '/internal/models', {
      allowed_models: ['demo/echo', 'demo/embed', 'claude-opus-4-7'],
      // What routed to the removed models goes in the same request, or the removal is refused.
      model_aliases: { smart: 'claude-opus-4-7', ghost: 'gpt-unlisted' },
      default_embedding_model: 'demo/embed',
    });
    expect(narrowed.status).toBe(200);
    const leftover = await h.admin('POST', '/internal/cache/purge', { model: 'gpt-4o-mini' });
    expect(leftover).toMatchObject({ status: 200, body: { purged: 1 } });
    expectError(
      await h.admin('POST', '/internal/cache/purge', { model: 'gpt-4o-mini' }),
      404,
      "model: 'gpt-4o-mini' is not an allowed model (see GET /internal/models)",
    );
  });

  it('a rule naming an unknown model or key, or a malformed name, is 400 and changes nothing', async () => {
    const cases: [object, string][] = [
      [
        { models: { 'gpt-4o-mnii': { enabled: false } } },
        "models.gpt-4o-mnii: 'gpt-4o-mnii' is not an allowed model (see GET /internal/models)",
      ],
      [
        { models: { fast: { enabled: false } } },
        "models.fast: 'fast' is not an allowed model; it is an alias: name its target 'gpt-4o-mini'",
      ],
      [{ keys: { key_nope: { enabled: false } } }, "keys.key_nope: no API key with id 'key_nope'"],
      [{ keys: { '': { enabled: false } } }, 'keys[""] is not a valid name: must not be empty'],
      [
        { models: { 'a\u0007b': { enabled: false } } },
        'models.a\u0007b is not a valid name: must not contain control characters',
      ],
      [
        { enabled: false, keys: { ['k'.repeat(300)]: {} } },
        `keys.${'k'.repeat(60)}... is not a valid name: must be at most 200 characters, got 300 characters`,
      ],
    ];
    for (const [body, message] of cases) expectError(await h.admin('PUT', '/internal/cache', body), 400, message);
    const view = (await h.admin('GET', '/internal/cache')).body;
    expect(view).toMatchObject({ source: 'config', settings: { enabled: true, models: {}, keys: {} } });
  });

  it('keeps rules already in force for a model taken off the allow-list, so other changes still save', async () => {
    const rules = { models: { 'gpt-4o-mini': { ttl_seconds: 60 } }, keys: { [key.id]: { sampled: true } } };
    expect((await h.admin('PUT', '/internal/cache', rules)).status).toBe(200);
    await h.admin('PUT', '/internal/models', { allowed_models: ['demo/echo', 'demo/embed'] });
    const saved = await h.admin('PUT', '/internal/cache', { ...rules, ttl_seconds: 120 });
    expect(saved).toMatchObject({ status: 200, body: { settings: { ttl_seconds: 120, ...rules } } });
  });
});
