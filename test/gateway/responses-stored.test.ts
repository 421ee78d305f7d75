import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/** Kept responses (`store`, `previous_response_id`, retrieve, input items, delete) through the `openai` SDK. */
describe('Stored responses', () => {
  let h: GatewayHarness;
  let client: OpenAI;

  beforeAll(async () => {
    h = await startGatewayHarness();
    client = h.openaiClient((await h.issueKey({ scopes: ['responses'], team: 'blue' })).key);
  });
  beforeEach(() => h.openai.reset());
  afterAll(async () => h.close());

  it('keeps a response: retrieve, list its input items, delete', async () => {
    const created = await client.responses.create({ model: 'demo/echo', input: 'keep me', store: true });
    expect(created).toMatchObject({ store: true });

    const retrieved = await client.responses.retrieve(created.id);
    expect(retrieved).toMatchObject({ id: created.id, object: 'response', status: 'completed', store: true });
    expect(retrieved.output_text).toBe('keep me');

    const items = await client.responses.inputItems.list(created.id);
    expect(items.data).toHaveLength(1);
    expect(items.data[0]).toMatchObject({
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: 'keep me' }],
    });
    const raw = await fetch(`${h.url}/v1/responses/${created.id}/input_items`, {
      headers: { authorization: `Bearer ${client.apiKey}` },
    });
    expect(await raw.json()).toEqual({
      object: 'list',
      data: [items.data[0]],
      first_id: items.data[0]!.id,
      last_id: items.data[0]!.id,
      has_more: false,
    });

    const deleted: unknown = await client.responses.delete(created.id);
    expect(deleted).toEqual({ id: created.id, object: 'response', deleted: true });
    const gone = await client.responses.retrieve(created.id).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(OpenAI.NotFoundError);
    expect((gone as Error).message).toContain(created.id);
  });

  it('reads of kept responses are not accounted as usage', async () => {
    const created = await client.responses.create({ model: 'demo/echo', input: 'read me', store: true });
    const read = await client.responses.retrieve(created.id).withResponse();
    expect(await h.usageRows(`request_id=${read.response.headers.get('x-request-id')}`)).toEqual([]);
  });

  it('pages input items in either order', async () => {
    const input = ['one', 'two', 'three'].map((text) => ({ role: 'user' as const, content: text }));
    const created = await client.responses.create({ model: 'demo/echo', input, store: true });
    const text = (item: unknown): string => (item as { content: Array<{ text: string }> }).content[0]!.text;
    const newest = await client.responses.inputItems.list(created.id, { limit: 2 });
    expect(newest.data.map(text)).toEqual(['three', 'two']);
    expect(newest.hasNextPage()).toBe(true);
    const rest = await newest.getNextPage();
    expect(rest.data.map(text)).toEqual(['one']);
    const oldest = await client.responses.inputItems.list(created.id, { order: 'asc' });
    expect(oldest.data.map(text)).toEqual(['one', 'two', 'three']);
  });

  it('pages input items back with before: the items nearest the cursor, in the list order', async () => {
    const input = ['one', 'two', 'three', 'four', 'five'].map((text) => ({ role: 'user' as const, content: text }));
    const created = await client.responses.create({ model: 'demo/echo', input, store: true });
    const page = async (query: string) => {
      const answer = await fetch(`${h.url}/v1/responses/${created.id}/input_items?${query}`, {
        headers: { authorization: `Bearer ${client.apiKey}` },
      });
      expect(answer.status).toBe(200);
      const body = (await answer.json()) as { data: Array<{ id: string; content: Array<{ text: string }> }> } & {
        has_more: boolean;
      };
      return { texts: body.data.map((item) => item.content[0]!.text), ids: body.data.map((item) => item.id), ...body };
    };
    const first = await page('limit=2');
    const second = await page(`limit=2&after=${first.ids.at(-1)}`);
    expect(second.texts).toEqual(['three', 'two']);
    const back = await page(`limit=2&before=${second.ids[0]}`);
    expect(back).toMatchObject({ texts: ['five', 'four'], has_more: false });
    const nearest = await page(`limit=1&before=${second.ids.at(-1)}`);
    expect(nearest).toMatchObject({ texts: ['three'], has_more: true });
    const between = await page(`after=${first.ids[0]}&before=${second.ids.at(-1)}`);
    expect(between).toMatchObject({ texts: ['four', 'three'], has_more: false });
    expect(await page('before=msg_unknown')).toMatchObject({ texts: [], has_more: false });
  });

  it('previous_response_id sends the earlier turns, oldest first, in front of the new input', async () => {
    const first = await client.responses.create({ model: 'gpt-4o-mini', input: 'My name is Ada.', store: true });
    expect(first.output_text).toBe('You said: My name is Ada.');
    const second = await client.responses.create({
      model: 'gpt-4o-mini',
      input: [{ role: 'user', content: 'I live in Oslo.' }],
      previous_response_id: first.id,
      store: true,
    });
    expect(second.previous_response_id).toBe(first.id);
    await client.responses.create({
      model: 'gpt-4o-mini',
      instructions: 'Be brief.',
      input: 'What do you know about me?',
      previous_response_id: second.id,
    });
    expect(h.openai.lastRequest()!.body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'My name is Ada.' },
      { role: 'assistant', content: 'You said: My name is Ada.' },
      { role: 'user', content: 'I live in Oslo.' },
      { role: 'assistant', content: 'You said: I live in Oslo.' },
      { role: 'user', content: 'What do you know about me?' },
    ]);
    // Each response lists only its own request's input.
    const items = await client.responses.inputItems.list(second.id);
    expect(items.data.map((item) => (item as { content: Array<{ text: string }> }).content[0]!.text)).toEqual([
      'I live in Oslo.',
    ]);
  });

  it('an unknown previous_response_id is 400 naming it, before any upstream call', async () => {
    const missing = await client.responses
      .create({ model: 'gpt-4o-mini', input: 'again', previous_response_id: 'resp_missing' })
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(OpenAI.BadRequestError);
    expect((missing as Error).message).toContain('resp_missing');
    expect(h.openai.requests).toHaveLength(0);
  });

  it('refuses a conversation longer than 100 kept responses with 400', async () => {
    let previous: string | undefined;
    for (let turn = 0; turn < 101; turn++) {
      const response = await client.responses.create({
        model: 'demo/echo',
        input: `turn ${turn}`,
        store: true,
        ...(previous ? { previous_response_id: previous } : {}),
      });
      previous = response.id;
    }
    const tooLong = await client.responses
      .create({ model: 'demo/echo', input: 'one more', previous_response_id: previous })
      .catch((e: unknown) => e);
    expect(tooLong).toBeInstanceOf(OpenAI.BadRequestError);
    expect((tooLong as Error).message).toContain('100');
  });

  it('keeps a streamed response as its final response.completed object, readable at once', async () => {
    const stream = client.responses.stream({ model: 'gpt-4o-mini', input: 'stream and keep', store: true });
    const final = await stream.finalResponse();
    const kept = await client.responses.retrieve(final.id);
    expect(kept).toMatchObject({ id: final.id, status: 'completed', usage: final.usage });
    expect(kept.output.map((item) => item.id)).toEqual(final.output.map((item) => item.id));
    expect(kept.output_text).toBe('You said: stream and keep');
  });

  it('another key cannot see it (404, as if absent), a key of the same team can', async () => {
    const created = await client.responses.create({ model: 'demo/echo', input: 'team only', store: true });
    const stranger = h.openaiClient((await h.issueKey({ scopes: ['responses'], team: 'red' })).key);
    const teammate = h.openaiClient((await h.issueKey({ scopes: ['responses'], team: 'blue' })).key);
    const loner = h.openaiClient((await h.issueKey({ scopes: ['responses'] })).key);

    for (const other of [stranger, loner]) {
      const hidden = await other.responses.retrieve(created.id).catch((e: unknown) => e);
      expect(hidden).toBeInstanceOf(OpenAI.NotFoundError);
      expect((hidden as Error).message).toContain(created.id);
      const chained = await other.responses
        .create({ model: 'demo/echo', input: 'x', previous_response_id: created.id })
        .catch((e: unknown) => e);
      expect(chained).toBeInstanceOf(OpenAI.BadRequestError);
      expect(await other.responses.delete(created.id).catch((e: unknown) => e)).toBeInstanceOf(OpenAI.NotFoundError);
    }
    expect((await teammate.responses.retrieve(created.id)).id).toBe(created.id);
    expect((await teammate.responses.inputItems.list(created.id)).data).toHaveLength(1);
  });

  it('reading kept responses needs the responses scope', async () => {
    const created = await client.responses.create({ model: 'demo/echo', input: 'scoped', store: true });
    const chatOnly = h.openaiClient((await h.issueKey({ scopes: ['chat'], team: 'blue' })).key);
    const denied = await chatOnly.responses.retrieve(created.id).catch((e: unknown) => e);
    expect(denied).toBeInstanceOf(OpenAI.PermissionDeniedError);
  });

  it('store false, or left out with the default false, keeps nothing', async () => {
    for (const store of [false, undefined]) {
      const created = await client.responses.create({ model: 'demo/echo', input: 'forget me', store });
      expect(created).toMatchObject({ store: false });
      expect(await client.responses.retrieve(created.id).catch((e: unknown) => e)).toBeInstanceOf(OpenAI.NotFoundError);
    }
  });
});

describe('Stored responses with responses.default_store true', () => {
  let h: GatewayHarness;

  beforeAll(async () => {
    h = await startGatewayHarness({ responses: { default_store: true } });
  });
  afterAll(async () => h.close());

  it('keeps a response sent without the flag, and store false still keeps nothing', async () => {
    const client = h.openaiClient((await h.issueKey({ scopes: ['responses'] })).key);
    const kept = await client.responses.create({ model: 'demo/echo', input: 'by default' });
    expect(kept).toMatchObject({ store: true });
    expect((await client.responses.retrieve(kept.id)).output_text).toBe('by default');
    const notKept = await client.responses.create({ model: 'demo/echo', input: 'not this', store: false });
    expect(await client.responses.retrieve(notKept.id).catch((e: unknown) => e)).toBeInstanceOf(OpenAI.NotFoundError);
  });
});
