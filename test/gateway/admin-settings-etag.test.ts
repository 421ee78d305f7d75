import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putIfMatch, startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * The deployments and the model settings are replaced whole by a PUT, so two admins (or a script and
 * the Models screen) editing at once would silently undo each other. Their GET carries an ETag; a PUT
 * sent with it as `If-Match` is refused (412) when someone else changed them since.
 */
describe('ETag and If-Match on whole-set admin settings', () => {
  let h: GatewayHarness;
  beforeAll(async () => {
    // A model limit, whose counters the models view shows: they move with traffic, the settings do not.
    h = await startGatewayHarness({ limits: { models: { 'gpt-4o-mini': { rpm_limit: 10 } } } });
  });
  afterAll(() => h?.close());

  const put = (path: string, body: unknown, ifMatch?: string) => putIfMatch(h, path, body, ifMatch);

  it('refuses a models PUT based on settings someone else changed since, and takes one based on the current ones', async () => {
    const read = await h.admin('GET', '/internal/models');
    const tag = read.headers.get('etag')!;
    expect(tag).toMatch(/^"[\w-]{27}"$/);
    // The same settings read again: the same tag.
    expect((await h.admin('GET', '/internal/models')).headers.get('etag')).toBe(tag);

    // Someone else adds an alias.
    const other = await put('/internal/models', {
      model_aliases: { ...read.body.model_aliases, quick: 'gpt-4o-mini' },
    });
    expect(other.status).toBe(200);
    expect(other.etag).not.toBe(tag);

    // A change based on what was read first would drop that alias: refused, nothing written.
    const stale = await put('/internal/models', { model_aliases: { ...read.body.model_aliases, slow: 'gpt-4o' } }, tag);
    expect(stale.status).toBe(412);
    expect(stale.body.error).toMatchObject({ type: 'precondition_failed', code: 412 });
    expect(stale.body.error.message).toContain('the models changed since they were read');
    const now = await h.admin('GET', '/internal/models');
    expect(now.body.model_aliases).toHaveProperty('quick');
    expect(now.body.model_aliases).not.toHaveProperty('slow');

    // Based on the current tag (the PUT's own answer carries it), it goes through.
    const fresh = await put(
      '/internal/models',
      { model_aliases: { ...now.body.model_aliases, slow: 'gpt-4o' } },
      other.etag!,
    );
    expect(fresh.status).toBe(200);
    expect(fresh.body.model_aliases).toMatchObject({ quick: 'gpt-4o-mini', slow: 'gpt-4o' });
    expect(fresh.etag).toBe((await h.admin('GET', '/internal/models')).headers.get('etag'));
  });

  it("keeps the models tag while only traffic moves (the model limits' counters), so a script with If-Match is not refused", async () => {
    const read = await h.admin('GET', '/internal/models');
    const tag = read.headers.get('etag')!;
    const key = await h.issueKey({ scopes: ['chat'] });
    await h.openaiClient(key.key).chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi' }],
    });
    const after = await h.admin('GET', '/internal/models');
    expect(after.body.model_limits['gpt-4o-mini']).not.toEqual(read.body.model_limits['gpt-4o-mini']);
    expect(after.headers.get('etag')).toBe(tag);
    const saved = await put(
      '/internal/models',
      { model_aliases: { ...read.body.model_aliases, busy: 'gpt-4o-mini' } },
      tag,
    );
    expect(saved.status).toBe(200);
  });

  it('guards the deployments the same way; `*` and no header at all go through, a weak tag is refused', async () => {
    const read = await h.admin('GET', '/internal/deployments');
    const tag = read.headers.get('etag')!;
    const deployments = read.body.data.map((d: Record<string, unknown>) => ({
      model: d.model,
      provider: d.provider,
      base_url: d.base_url,
      id: d.id,
    }));
    const changed = await put('/internal/deployments', { deployments: deployments.slice(0, -1) });
    expect(changed.status).toBe(200);
    const stale = await put('/internal/deployments', { deployments }, tag);
    expect(stale.status).toBe(412);
    expect(stale.body.error.message).toContain('the deployments changed since they were read');
    expect((await put('/internal/deployments', { deployments }, `W/${changed.etag}`)).status).toBe(412);
    expect((await put('/internal/deployments', { deployments }, '*')).status).toBe(200);
    expect((await put('/internal/deployments', { deployments })).status).toBe(200);
  });
});
