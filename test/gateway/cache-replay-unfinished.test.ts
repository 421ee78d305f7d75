import { describe, expect, it } from 'vitest';
import { namedFrame, withRawGateway } from './cache-replay-upstream.js';

/**
 * Answers that came with a 200 but are not the answer to the request are never kept: a Response that
 * failed, was cancelled or is incomplete, a chat completion stopped by the content filter, a Messages
 * refusal. The same request asked again goes to the provider again.
 */
describe('cache: unfinished answers are not kept', () => {
  const gateway = withRawGateway();

  const response = (status: string, extra: object = {}) => ({
    id: `resp_${status}01`,
    object: 'response',
    created_at: 1700000000,
    status,
    model: 'gpt-4.1',
    output: [
      {
        type: 'message',
        id: 'msg_part01',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Part', annotations: [] }],
      },
    ],
    usage: { input_tokens: 5, output_tokens: 1, total_tokens: 6 },
    ...extra,
  });

  /** Asks twice; how many requests reached the provider, and the second answer's x-cache-hit. */
  const twice = async (ask: () => Promise<{ response: Response }>): Promise<[number, string | null]> => {
    await ask();
    const { response: second } = await ask();
    return [gateway.raw.requests, second.headers.get('x-cache-hit')];
  };

  it('Responses JSON with status failed: answered as the upstream failure it is, and asked again upstream', async () => {
    gateway.raw.answerJson(response('failed', { error: { code: 'server_error', message: 'The model failed.' } }));
    const ask = () =>
      gateway.openai.responses
        .create({ model: 'raw-responses', temperature: 0, input: 'status failed' })
        .catch((error: unknown) => error as { status: number });
    expect((await ask()).status).toBe(502);
    const before = gateway.raw.requests;
    expect((await ask()).status).toBe(502);
    expect(gateway.raw.requests).toBeGreaterThan(before);
  });

  it.each([
    ['incomplete', { incomplete_details: { reason: 'max_output_tokens' } }],
    ['cancelled', {}],
  ])('Responses JSON with status %s', async (status, extra) => {
    gateway.raw.answerJson(response(status, extra));
    const ask = () =>
      gateway.openai.responses
        .create({ model: 'raw-responses', temperature: 0, input: `status ${status}` })
        .withResponse();
    expect(await twice(ask)).toEqual([2, 'false']);
  });

  it('a Responses stream that ends incomplete', async () => {
    gateway.raw.answerFrames([
      namedFrame({
        type: 'response.created',
        sequence_number: 0,
        response: { ...response('in_progress'), output: [] },
      }),
      namedFrame({
        type: 'response.incomplete',
        sequence_number: 1,
        response: response('incomplete', { incomplete_details: { reason: 'max_output_tokens' } }),
      }),
    ]);
    const ask = async () => {
      const { data, response: answer } = await gateway.openai.responses
        .create({ model: 'raw-responses', temperature: 0, input: 'stream incomplete', stream: true })
        .withResponse();
      for await (const event of data) void event;
      return { response: answer };
    };
    expect(await twice(ask)).toEqual([2, 'false']);
  });

  const filtered = {
    id: 'chatcmpl-filtered01',
    object: 'chat.completion',
    created: 1700000000,
    model: 'gpt-4o',
    choices: [
      { index: 0, message: { role: 'assistant', content: 'Part', refusal: null }, finish_reason: 'content_filter' },
    ],
    usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
  };

  it('chat stopped by the content filter, whole and streamed', async () => {
    gateway.raw.answerJson(filtered);
    const ask = () =>
      gateway.openai.chat.completions
        .create({ model: 'raw-chat', temperature: 0, messages: [{ role: 'user', content: 'filtered' }] })
        .withResponse();
    expect(await twice(ask)).toEqual([2, 'false']);

    const chunk = (delta: object, finish: string | null) =>
      `data: ${JSON.stringify({ ...filtered, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    gateway.raw.answerFrames([
      chunk({ role: 'assistant', content: 'Part' }, null),
      chunk({}, 'content_filter'),
      'data: [DONE]\n\n',
    ]);
    const streamed = async () => {
      const { data, response: answer } = await gateway.openai.chat.completions
        .create({ model: 'raw-chat', temperature: 0, stream: true, messages: [{ role: 'user', content: 'filtered' }] })
        .withResponse();
      for await (const part of data) void part;
      return { response: answer };
    };
    expect(await twice(streamed)).toEqual([2, 'false']);
  });

  it('a Messages refusal, whole and streamed', async () => {
    const message = {
      id: 'msg_refused01',
      type: 'message',
      role: 'assistant',
      model: 'claude-x',
      content: [{ type: 'text', text: 'I can’t help with that.' }],
      stop_reason: 'refusal',
      stop_sequence: null,
      usage: { input_tokens: 5, output_tokens: 6 },
    };
    gateway.raw.answerJson(message);
    const body = {
      model: 'raw-claude',
      max_tokens: 50,
      temperature: 0,
      messages: [{ role: 'user' as const, content: 'refuse' }],
    };
    expect(await twice(() => gateway.anthropic.messages.create(body).withResponse())).toEqual([2, 'false']);

    gateway.raw.answerFrames([
      namedFrame({ type: 'message_start', message: { ...message, content: [], stop_reason: null } }),
      namedFrame({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
      namedFrame({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'No.' } }),
      namedFrame({ type: 'content_block_stop', index: 0 }),
      namedFrame({
        type: 'message_delta',
        delta: { stop_reason: 'refusal', stop_sequence: null },
        usage: { output_tokens: 2 },
      }),
      namedFrame({ type: 'message_stop' }),
    ]);
    const streamed = async () => {
      const { data, response: answer } = await gateway.anthropic.messages
        .create({ ...body, stream: true })
        .withResponse();
      for await (const event of data) void event;
      return { response: answer };
    };
    expect(await twice(streamed)).toEqual([2, 'false']);
  });

  it('a completed answer of the same upstream is kept (the test above is not vacuous)', async () => {
    gateway.raw.answerJson(response('completed'));
    const ask = () =>
      gateway.openai.responses.create({ model: 'raw-responses', temperature: 0, input: 'completed' }).withResponse();
    expect(await twice(ask)).toEqual([1, 'true']);
  });
});
