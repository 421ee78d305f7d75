import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { namedFrame, withRawGateway } from './cache-replay-upstream.js';

/**
 * A cache hit is the kept answer as the provider wrote it, but for the ids the provider made for
 * that answer (fresh ones, each the same everywhere it stands) and its time (the hit's): ids inside
 * content (a tool's input, a container the client must send back) come back unchanged.
 */
describe('cache replays: fresh ids by their paths, content untouched', () => {
  const gateway = withRawGateway();

  const now = (): number => Math.floor(Date.now() / 1000);
  const ORDER = { id: 'order_12345', items: [{ id: 'sku-998877', qty: 2 }] };

  it('Messages: a tool_use input and the container are replayed unchanged; the message and call get fresh ids', async () => {
    gateway.raw.answerJson({
      id: 'msg_01AbCdEfGh',
      type: 'message',
      role: 'assistant',
      model: 'claude-x',
      content: [
        { type: 'text', text: 'Placing it.' },
        { type: 'tool_use', id: 'toolu_01XyZabc', name: 'place_order', input: ORDER },
      ],
      container: { id: 'container_011CPR5CNjB747bTd36fQLFk', expires_at: '2030-01-01T00:00:00Z' },
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 5 },
    });
    const ask = () =>
      gateway.anthropic.messages
        .create({
          model: 'raw-claude',
          max_tokens: 50,
          messages: [{ role: 'user', content: 'order two' }],
        })
        .withResponse();
    const first = await ask();
    const second = await ask();
    expect(second.response.headers.get('x-cache-hit')).toBe('true');
    expect(gateway.raw.requests).toBe(1);
    const call = second.data.content[1] as Anthropic.ToolUseBlock;
    expect(call.input).toEqual(ORDER);
    expect((second.data as unknown as { container: unknown }).container).toEqual({
      id: 'container_011CPR5CNjB747bTd36fQLFk',
      expires_at: '2030-01-01T00:00:00Z',
    });
    expect(second.data.id).toMatch(/^msg_[A-Za-z0-9]{24}$/);
    expect(second.data.id).not.toBe(first.data.id);
    expect(call.id).toMatch(/^toolu_[A-Za-z0-9]{24}$/);
    expect(call.id).not.toBe('toolu_01XyZabc');
  });

  it('Messages: a server tool result keeps naming its call, under the call’s fresh id', async () => {
    gateway.raw.answerJson({
      id: 'msg_02server',
      type: 'message',
      role: 'assistant',
      model: 'claude-x',
      content: [
        { type: 'server_tool_use', id: 'srvtoolu_01abc', name: 'web_search', input: { query: 'id of order_12345' } },
        {
          type: 'web_search_tool_result',
          tool_use_id: 'srvtoolu_01abc',
          content: [{ type: 'web_search_result', url: 'https://example.com/', title: 'x', encrypted_content: 'e' }],
        },
        { type: 'text', text: 'found' },
      ],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 5 },
    });
    const ask = () =>
      gateway.anthropic.messages.create({
        model: 'raw-claude',
        max_tokens: 50,
        messages: [{ role: 'user', content: 'search it' }],
      });
    await ask();
    const hit = await ask();
    expect(gateway.raw.requests).toBe(1);
    const [use, result] = hit.content as [Anthropic.ServerToolUseBlock, Anthropic.WebSearchToolResultBlock];
    expect(use.id).not.toBe('srvtoolu_01abc');
    expect(use.id).toMatch(/^srvtoolu_/);
    expect(result.tool_use_id).toBe(use.id);
    expect(use.input).toEqual({ query: 'id of order_12345' });
  });

  it('Messages stream: ids in message_start and content_block_start fresh, input and container unchanged', async () => {
    const input = JSON.stringify(ORDER);
    gateway.raw.answerFrames([
      namedFrame({
        type: 'message_start',
        message: {
          id: 'msg_03stream',
          type: 'message',
          role: 'assistant',
          model: 'claude-x',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 10, output_tokens: 1 },
        },
      }),
      namedFrame({
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 'toolu_03stream', name: 'place_order', input: {} },
      }),
      namedFrame({
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: input },
      }),
      namedFrame({ type: 'content_block_stop', index: 0 }),
      namedFrame({
        type: 'message_delta',
        delta: {
          stop_reason: 'tool_use',
          stop_sequence: null,
          container: { id: 'container_03stream', expires_at: '2030-01-01T00:00:00Z' },
        },
        usage: { output_tokens: 5 },
      }),
      namedFrame({ type: 'message_stop' }),
    ]);
    const streamed = async (): Promise<Anthropic.Message> =>
      gateway.anthropic.messages
        .stream({
          model: 'raw-claude',
          max_tokens: 50,
          messages: [{ role: 'user', content: 'stream' }],
        })
        .finalMessage();
    const first = await streamed();
    const second = await streamed();
    expect(gateway.raw.requests).toBe(1);
    const call = second.content[0] as Anthropic.ToolUseBlock;
    expect(call.input).toEqual(ORDER);
    expect(call.id).toMatch(/^toolu_/);
    expect(call.id).not.toBe('toolu_03stream');
    expect(second.id).not.toBe(first.id);
    expect((second as unknown as { container: { id: string } }).container.id).toBe('container_03stream');
  });

  it('chat, pretty-printed as api.openai.com writes it: a fresh id, tool call id and time; arguments unchanged', async () => {
    const args = JSON.stringify(ORDER);
    gateway.raw.answerJson(
      {
        id: 'chatcmpl-pretty0123456789',
        object: 'chat.completion',
        created: 1700000000,
        model: 'gpt-4o',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: null,
              refusal: null,
              tool_calls: [
                { id: 'call_pretty01', type: 'function', function: { name: 'place_order', arguments: args } },
              ],
            },
            logprobs: null,
            finish_reason: 'tool_calls',
          },
        ],
        usage: { prompt_tokens: 9, completion_tokens: 12, total_tokens: 21 },
        system_fingerprint: 'fp_pretty',
      },
      2,
    );
    const ask = () =>
      gateway.openai.chat.completions
        .create({ model: 'raw-chat', temperature: 0, messages: [{ role: 'user', content: 'pretty' }] })
        .withResponse();
    const first = await ask();
    const before = now();
    const second = await ask();
    expect(second.response.headers.get('x-cache-hit')).toBe('true');
    expect(gateway.raw.requests).toBe(1);
    expect(first.data.id).toBe('chatcmpl-pretty0123456789');
    expect(second.data.id).toMatch(/^chatcmpl-[A-Za-z0-9]{16}$/);
    expect(second.data.id).not.toBe(first.data.id);
    const call = second.data.choices[0]!.message.tool_calls![0] as OpenAI.ChatCompletionMessageFunctionToolCall;
    expect(call.id).toMatch(/^call_[A-Za-z0-9]{24}$/);
    expect(call.id).not.toBe('call_pretty01');
    expect(call.function.arguments).toBe(args);
    expect(second.data.created).toBeGreaterThanOrEqual(before);
    expect(second.data).toEqual({
      ...first.data,
      id: second.data.id,
      created: second.data.created,
      choices: [{ ...first.data.choices[0], message: { ...first.data.choices[0]!.message, tool_calls: [call] } }],
    });
  });

  it('chat stream: every chunk carries one fresh id and the hit’s time', async () => {
    const chunk = (delta: object, finish: string | null) =>
      `data: ${JSON.stringify({
        id: 'chatcmpl-stream01',
        object: 'chat.completion.chunk',
        created: 1700000000,
        model: 'gpt-4o',
        choices: [{ index: 0, delta, finish_reason: finish }],
      })}\n\n`;
    gateway.raw.answerFrames([
      chunk({ role: 'assistant', content: '' }, null),
      chunk({ content: '{"id":"order_12345"}' }, null),
      chunk({}, 'stop'),
      'data: [DONE]\n\n',
    ]);
    const run = async (): Promise<{ ids: Set<string>; created: Set<number>; text: string }> => {
      const stream = await gateway.openai.chat.completions.create({
        model: 'raw-chat',
        temperature: 0,
        stream: true,
        messages: [{ role: 'user', content: 'stream chat' }],
      });
      const seen = { ids: new Set<string>(), created: new Set<number>(), text: '' };
      for await (const part of stream) {
        seen.ids.add(part.id);
        seen.created.add(part.created);
        seen.text += part.choices[0]?.delta.content ?? '';
      }
      return seen;
    };
    await run();
    const before = now();
    const second = await run();
    expect(gateway.raw.requests).toBe(1);
    expect(second.text).toBe('{"id":"order_12345"}');
    expect(second.ids.size).toBe(1);
    expect([...second.ids][0]).toMatch(/^chatcmpl-[A-Za-z0-9]{24}$/);
    expect(second.created.size).toBe(1);
    expect([...second.created][0]).toBeGreaterThanOrEqual(before);
  });

  it('Responses: the response, its items and call_id fresh, created_at the hit’s time', async () => {
    gateway.raw.answerJson(
      {
        id: 'resp_json0123',
        object: 'response',
        created_at: 1700000000,
        status: 'completed',
        model: 'gpt-4.1',
        output: [
          {
            type: 'function_call',
            id: 'fc_json0123',
            call_id: 'call_json0123',
            name: 'place_order',
            arguments: JSON.stringify(ORDER),
            status: 'completed',
          },
        ],
        usage: { input_tokens: 5, output_tokens: 7, total_tokens: 12 },
      },
      2,
    );
    const ask = () => gateway.openai.responses.create({ model: 'raw-responses', temperature: 0, input: 'call it' });
    const first = await ask();
    const before = now();
    const second = await ask();
    expect(gateway.raw.requests).toBe(1);
    const [one, two] = [first.output[0], second.output[0]] as OpenAI.Responses.ResponseFunctionToolCall[];
    expect(second.id).toMatch(/^resp_(?!json0123$)/);
    expect(two!.id).toMatch(/^fc_(?!json0123$)/);
    expect(two!.call_id).toMatch(/^call_[A-Za-z0-9]{24}$/);
    expect(two!.arguments).toBe(one!.arguments);
    expect(second.created_at).toBeGreaterThanOrEqual(before);
  });

  it('Responses stream: call_id, item and response ids fresh and the same in every event that names them', async () => {
    const item = {
      type: 'function_call',
      id: 'fc_stream01',
      call_id: 'call_stream01',
      name: 'place_order',
      arguments: '',
      status: 'in_progress',
    };
    const done = { ...item, arguments: '{}', status: 'completed' };
    const response = (status: string, output: object[]) => ({
      id: 'resp_stream01',
      object: 'response',
      created_at: 1700000000,
      status,
      model: 'gpt-4.1',
      output,
      usage: status === 'completed' ? { input_tokens: 5, output_tokens: 2, total_tokens: 7 } : null,
    });
    gateway.raw.answerFrames([
      namedFrame({ type: 'response.created', sequence_number: 0, response: response('in_progress', []) }),
      namedFrame({ type: 'response.output_item.added', sequence_number: 1, output_index: 0, item }),
      namedFrame({
        type: 'response.function_call_arguments.delta',
        sequence_number: 2,
        output_index: 0,
        item_id: 'fc_stream01',
        delta: '{}',
      }),
      namedFrame({
        type: 'response.function_call_arguments.done',
        sequence_number: 3,
        output_index: 0,
        item_id: 'fc_stream01',
        arguments: '{}',
      }),
      namedFrame({ type: 'response.output_item.done', sequence_number: 4, output_index: 0, item: done }),
      namedFrame({ type: 'response.completed', sequence_number: 5, response: response('completed', [done]) }),
    ]);
    const run = async () => {
      const stream = gateway.openai.responses.stream({ model: 'raw-responses', temperature: 0, input: 'stream call' });
      const seen = { responses: new Set<string>(), items: new Set<string>(), calls: new Set<string>() };
      for await (const event of stream) {
        if ('response' in event) seen.responses.add(event.response.id);
        if ('item' in event) {
          seen.items.add(event.item.id!);
          seen.calls.add((event.item as OpenAI.Responses.ResponseFunctionToolCall).call_id);
        }
        if ('item_id' in event) seen.items.add(event.item_id);
      }
      const final = await stream.finalResponse();
      const call = final.output[0] as OpenAI.Responses.ResponseFunctionToolCall;
      seen.responses.add(final.id);
      seen.items.add(call.id!);
      seen.calls.add(call.call_id);
      return { ...seen, createdAt: final.created_at };
    };
    await run();
    const before = now();
    const second = await run();
    expect(gateway.raw.requests).toBe(1);
    for (const [ids, old] of [
      [second.responses, 'resp_stream01'],
      [second.items, 'fc_stream01'],
      [second.calls, 'call_stream01'],
    ] as const) {
      expect(ids.size).toBe(1);
      expect([...ids][0]).not.toBe(old);
      // Too short to draw afresh at its length: the prefix, then 24 new characters.
      expect([...ids][0]).toMatch(new RegExp(`^${old.split('_')[0]}_[A-Za-z0-9]{24}$`));
    }
    expect(second.createdAt).toBeGreaterThanOrEqual(before);
  });
});
