import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/** The ids of a Responses `input`'s items (string input has none). */
function itemIds(input: unknown): unknown[] {
  return Array.isArray(input) ? input.filter((item) => 'id' in item).map((item) => item.id) : [];
}

/** Every `id` of every output item of the Responses the upstream answered so far. */
function issuedIds(answers: readonly unknown[]): Set<unknown> {
  return new Set(
    answers.flatMap((answer) => (answer as { output: Array<{ id: unknown }> }).output.map((item) => item.id)),
  );
}

/** A Response as OpenAI answers it, with ids of its own (the mock's default repeats one id). */
function upstreamResponse(n: number, text: string): Record<string, unknown> {
  return {
    id: `resp_upstream${n}`,
    object: 'response',
    created_at: 1700000000,
    status: 'completed',
    model: 'gpt-4o-mini-2024-07-18',
    output: [
      {
        type: 'message',
        id: `msg_upstream${n}`,
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text, annotations: [] }],
      },
    ],
    usage: { input_tokens: 5, output_tokens: 2, total_tokens: 7 },
  };
}

/**
 * A conversation continued with `previous_response_id` on a deployment with OpenAI's own Responses
 * API: OpenAI looks up every input item that carries an `id` among the items it stored, and refuses
 * the request (400 "Item with id ... not found") for an id it never issued.
 */
describe('a kept conversation replayed to a native Responses upstream', () => {
  let h: GatewayHarness;
  let key: string;
  beforeAll(async () => {
    h = await startGatewayHarness({
      deployments: [{ id: 'oa-native', model: 'gpt-4o-mini', provider: 'openai', responses_api: 'native' }],
    });
    key = (await h.issueKey({ scopes: ['responses'] })).key;
  });
  afterAll(async () => h.close());
  beforeEach(() => h.openai.reset());

  it('carries only item ids the upstream issued, the client input as the client sent it', async () => {
    const client = h.openaiClient(key);
    h.openai.setNext(
      { body: upstreamResponse(1, 'Hello Ada.') },
      { body: upstreamResponse(2, 'Nice.') },
      { body: upstreamResponse(3, 'Oslo.') },
    );
    const first = await client.responses.create({ model: 'gpt-4o-mini', input: 'My name is Ada.', store: true });
    const second = await client.responses.create({
      model: 'gpt-4o-mini',
      input: [
        { role: 'user', content: 'I live in Oslo.' },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'And you?' }] },
      ],
      previous_response_id: first.id,
      store: true,
    });
    await client.responses.create({ model: 'gpt-4o-mini', input: 'Where do I live?', previous_response_id: second.id });

    const sent = h.openai.requests.map((request) => request.body);
    const replayed = sent[2]!.input as Array<Record<string, unknown>>;
    expect(replayed.map((item) => item.role)).toEqual(['user', 'assistant', 'user', 'user', 'assistant', 'user']);
    const issued = issuedIds([first, second]);
    for (const id of itemIds(replayed)) expect(issued).toContain(id);
    // The user's turns go back as they were first sent, without ids the gateway made up for its lists.
    expect(replayed[0]).toEqual({
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: 'My name is Ada.' }],
    });
    expect(replayed[3]).toEqual({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'And you?' }] });
  });

  it('still lists input items with ids that stay the same from one read to the next and page by them', async () => {
    const client = h.openaiClient(key);
    const input = ['one', 'two', 'three'].map((text) => ({ role: 'user' as const, content: text }));
    const created = await client.responses.create({ model: 'gpt-4o-mini', input, store: true });
    const all = (await client.responses.inputItems.list(created.id, { order: 'asc' })).data;
    expect(all.map((item) => item.id)).toEqual(
      (await client.responses.inputItems.list(created.id, { order: 'asc' })).data.map((item) => item.id),
    );
    expect(new Set(all.map((item) => item.id)).size).toBe(3);
    for (const item of all) expect(item.id).toMatch(/^msg_[0-9a-f]{32}$/);
    const after = await client.responses.inputItems.list(created.id, { order: 'asc', after: all[0]!.id });
    expect(after.data.map((item) => item.id)).toEqual([all[1]!.id, all[2]!.id]);
  });

  it('keeps an id the client sent with an item of its own', async () => {
    const client = h.openaiClient(key);
    h.openai.setNext({ body: upstreamResponse(4, 'Found it.') }, { body: upstreamResponse(5, 'Next.') });
    const first = await client.responses.create({
      model: 'gpt-4o-mini',
      input: [
        { type: 'function_call', id: 'fc_client1', call_id: 'call_1', name: 'lookup', arguments: '{}' },
        { type: 'function_call_output', id: 'fco_client1', call_id: 'call_1', output: 'found' },
      ],
      store: true,
    });
    const listed = await client.responses.inputItems.list(first.id, { order: 'asc' });
    expect(listed.data.map((item) => item.id)).toEqual(['fc_client1', 'fco_client1']);
    await client.responses.create({ model: 'gpt-4o-mini', input: 'next', previous_response_id: first.id });
    expect(itemIds(h.openai.lastRequest()!.body.input).slice(0, 2)).toEqual(['fc_client1', 'fco_client1']);
  });
});
