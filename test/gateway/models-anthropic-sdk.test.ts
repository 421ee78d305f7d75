import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/** Anthropic's SDK lists models with `x-api-key` and reads Anthropic's list shape; OpenAI's SDK keeps its own. */
describe('GET /v1/models for both SDKs', () => {
  let h: GatewayHarness;
  let secret: string;

  beforeAll(async () => {
    h = await startGatewayHarness();
    secret = (await h.issueKey({ scopes: ['chat'] })).key;
  });
  afterAll(async () => h.close());

  it('the Anthropic SDK lists every allowed model through its pages, authenticated by x-api-key', async () => {
    const client = h.anthropicClient(secret);
    const ids: string[] = [];
    for await (const model of client.models.list({ limit: 2 })) {
      expect(model.type).toBe('model');
      expect(model.display_name).toBe(model.id);
      expect(Number.isNaN(Date.parse(model.created_at))).toBe(false);
      ids.push(model.id);
    }
    const openaiIds = (await h.openaiClient(secret).models.list()).data.map((m) => m.id);
    expect(ids).toEqual(openaiIds);
    expect(ids).toContain('demo/echo');
    expect((await client.models.retrieve('gpt-4o-mini')).id).toBe('gpt-4o-mini');
  });

  it('pages before a cursor, and refuses a bad limit naming it', async () => {
    const headers = { 'x-api-key': secret, 'anthropic-version': '2023-06-01' };
    const all = (await (await fetch(`${h.url}/v1/models?limit=1000`, { headers })).json()) as {
      data: Array<{ id: string }>;
    };
    const last = all.data.at(-1)!.id;
    const before = (await (
      await fetch(`${h.url}/v1/models?before_id=${encodeURIComponent(last)}&limit=2`, { headers })
    ).json()) as {
      data: Array<{ id: string }>;
      has_more: boolean;
    };
    expect(before.data.map((m) => m.id)).toEqual(all.data.slice(-3, -1).map((m) => m.id));
    expect(before.has_more).toBe(true);
    const bad = await fetch(`${h.url}/v1/models?limit=0`, { headers });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toContain('limit');
    // A cursor that is no model of the list is refused, not read as the start or as an empty page.
    for (const cursor of ['after_id', 'before_id']) {
      const unknown = await fetch(`${h.url}/v1/models?${cursor}=nope`, { headers });
      expect(unknown.status, cursor).toBe(400);
      expect(await unknown.json()).toMatchObject({
        type: 'error',
        error: {
          message: `query parameter ${cursor} 'nope' is not a model of this list; page with the first_id or last_id of an earlier page`,
        },
      });
    }
  });

  it('answers for an alias under its own name in both shapes; an alias of a model not allowed stays 404', async () => {
    const fast = await h.openaiClient(secret).models.retrieve('fast');
    const target = await h.openaiClient(secret).models.retrieve('gpt-4o-mini');
    expect(fast).toMatchObject({ id: 'fast', object: 'model', owned_by: target.owned_by });
    expect((await h.anthropicClient(secret).models.retrieve('smart')).id).toBe('smart');
    const ghost = await fetch(`${h.url}/v1/models/ghost`, { headers: { authorization: `Bearer ${secret}` } });
    expect(ghost.status).toBe(404);
  });

  it("answers an Anthropic client's errors outside /v1/messages in Anthropic's envelope too", async () => {
    const anthropic = { 'x-api-key': secret, 'anthropic-version': '2023-06-01' };
    for (const [path, headers, status] of [
      ['/v1/models/no-such-model', anthropic, 404],
      ['/v1/models', { 'anthropic-version': '2023-06-01' }, 401],
    ] as const) {
      const answer = await fetch(`${h.url}${path}`, { headers });
      expect(answer.status).toBe(status);
      expect(await answer.json()).toMatchObject({ type: 'error', error: { code: status } });
    }
    // An OpenAI client's errors keep OpenAI's shape.
    const openai = await fetch(`${h.url}/v1/models/no-such-model`, { headers: { authorization: `Bearer ${secret}` } });
    expect(Object.keys((await openai.json()) as object)).toEqual(['error']);
  });

  it('x-api-key works on /v1/models only where Anthropic clients call, not on chat completions', async () => {
    const models = await fetch(`${h.url}/v1/models`, { headers: { 'x-api-key': secret } });
    expect(models.status).toBe(200);
    const chat = await fetch(`${h.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'x-api-key': secret, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'demo/echo', messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(chat.status).toBe(401);
  });
});
