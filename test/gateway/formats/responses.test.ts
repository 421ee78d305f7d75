import type { IrStreamEvent } from '../../../src/server/gateway/formats/ir.js';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chatCodec,
  encodeResponsesStream,
  messagesCodec,
  responseEnvelope,
  responsesErrorFrame,
  responsesRequestToIr,
  responsesResponseFromIr,
  TranslationError,
  validateResponsesRequest,
  type ResponsesBody,
} from '../../../src/server/gateway/formats/index.js';
import { startFrameServer, type FrameServer } from '../../support/upstreams/index.js';
import { ANTHROPIC_TOOL_STREAM, collect, eventsOf, OPENAI_TOOL_STREAM } from './stream-fixtures.js';

function valid(body: unknown): ResponsesBody {
  const result = validateResponsesRequest(body);
  if (!result.ok) throw new Error(result.message);
  return result.value;
}

let server: FrameServer;
beforeAll(async () => {
  server = await startFrameServer();
});
afterAll(() => server.close());

describe('Responses requests', () => {
  it('validate with field-naming messages', () => {
    const missing = validateResponsesRequest({ model: 'm' });
    expect(!missing.ok && missing.message).toBe('input is required');
    const bad = validateResponsesRequest({ model: 'm', input: [{ role: 'user', content: [{ type: 'input_text' }] }] });
    expect(!bad.ok && bad.message).toBe('input[0].content[0].text is required');
    expect(validateResponsesRequest({ model: 'm', input: 'hi', tools: [{ type: 'web_search' }] }).ok).toBe(true);
  });

  it('map to a chat completions request: instructions, items, function calls and outputs, tools', () => {
    const ir = responsesRequestToIr(
      valid({
        model: 'm',
        instructions: 'Be brief.',
        input: [
          {
            role: 'user',
            content: [
              { type: 'input_text', text: 'Weather?' },
              { type: 'input_image', image_url: 'https://x/y.png' },
              { type: 'input_image', image_url: 'https://x/z.png', detail: 'low' },
            ],
          },
          { type: 'function_call', call_id: 'call_1', name: 'weather', arguments: '{"city":"Paris"}' },
          { type: 'function_call_output', call_id: 'call_1', output: 'sunny' },
        ],
        tools: [{ type: 'function', name: 'weather', parameters: { type: 'object' } }],
        tool_choice: 'required',
        max_output_tokens: 50,
        stream: true,
      }),
    );
    expect(chatCodec.requestFromIr(ir, 'gpt')).toEqual({
      model: 'gpt',
      messages: [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather?' },
            { type: 'image_url', image_url: { url: 'https://x/y.png' } },
            { type: 'image_url', image_url: { url: 'https://x/z.png', detail: 'low' } },
          ],
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
      ],
      max_tokens: 50,
      tools: [{ type: 'function', function: { name: 'weather', parameters: { type: 'object' } } }],
      tool_choice: 'required',
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('refuse hosted tools on a provider without a Responses API', () => {
    expect(() => responsesRequestToIr(valid({ model: 'm', input: 'x', tools: [{ type: 'web_search' }] }))).toThrow(
      TranslationError,
    );
  });
});

describe('Responses answers over the openai SDK', () => {
  it('a complete answer parses, with output_text and function calls', async () => {
    const body = valid({ model: 'public', input: 'Weather?' });
    const ir = chatCodec.responseToIr({
      id: 'c',
      choices: [
        {
          message: {
            content: 'Checking',
            tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{}' } }],
          },
          finish_reason: 'tool_calls',
        },
      ],
    });
    server.serveJson(
      responsesResponseFromIr(ir, responseEnvelope(body, 'public'), { promptTokens: 5, completionTokens: 3 }),
    );
    const client = new OpenAI({ baseURL: server.url, apiKey: 'k', maxRetries: 0 });
    const response = await client.responses.create({ model: 'public', input: 'Weather?' });
    expect(response.status).toBe('completed');
    expect(response.output_text).toBe('Checking');
    expect(response.output[1]).toMatchObject({
      type: 'function_call',
      call_id: 'call_1',
      name: 'weather',
      arguments: '{}',
    });
    expect(response.usage).toMatchObject({ input_tokens: 5, output_tokens: 3, total_tokens: 8 });
  });

  it('a stream translated from an Anthropic upstream accumulates in ResponseStream', async () => {
    const body = valid({ model: 'public', input: 'Weather?', stream: true });
    server.serveFrames(
      encodeResponsesStream(
        messagesCodec.decodeStream(eventsOf(ANTHROPIC_TOOL_STREAM)),
        responseEnvelope(body, 'public'),
        () => ({ promptTokens: 25, completionTokens: 15 }),
      ),
    );
    const client = new OpenAI({ baseURL: server.url, apiKey: 'k', maxRetries: 0 });
    const stream = client.responses.stream({ model: 'public', input: 'Weather?' });
    const deltas: string[] = [];
    stream.on('response.output_text.delta', (event) => deltas.push(event.delta));
    const response = await stream.finalResponse();
    expect(deltas.join('')).toBe('Let me check.');
    expect(response.output_text).toBe('Let me check.');
    expect(response.output[1]).toMatchObject({
      type: 'function_call',
      call_id: 'toolu_a',
      name: 'weather',
      arguments: '{"city": "Paris"}',
      status: 'completed',
    });
    expect(response.usage).toMatchObject({ input_tokens: 25, output_tokens: 15 });
  });

  it('ends the upstream when stopped at any frame, the first ones included', async () => {
    const body = valid({ model: 'public', input: 'x', stream: true });
    for (const stopAfter of [1, 2, 4, 6]) {
      let ended = false;
      async function* upstream(): AsyncGenerator<IrStreamEvent> {
        try {
          yield { type: 'text', text: 'one ' };
          yield { type: 'text', text: 'two' };
          yield { type: 'finish', stopReason: 'stop', stopSequence: null };
        } finally {
          ended = true;
        }
      }
      const frames = encodeResponsesStream(upstream(), responseEnvelope(body, 'public'), () => ({
        promptTokens: 1,
        completionTokens: 1,
      }));
      let seen = 0;
      for await (const frame of frames) {
        void frame;
        if ((seen += 1) === stopAfter) break;
      }
      expect({ stopAfter, ended }).toEqual({ stopAfter, ended: true });
    }
  });

  it('numbers events in order and names each SSE event after its type', async () => {
    const body = valid({ model: 'public', input: 'x', stream: true });
    const frames = await collect(
      encodeResponsesStream(
        chatCodec.decodeStream(eventsOf(OPENAI_TOOL_STREAM)),
        responseEnvelope(body, 'public'),
        () => ({ promptTokens: 1, completionTokens: 1 }),
      ),
    );
    const events = frames.map((frame) => ({
      name: /^event: (.*)$/m.exec(frame)![1],
      data: JSON.parse(/^data: (.*)$/m.exec(frame)![1]),
    }));
    events.forEach((event, index) => {
      expect(event.data.type).toBe(event.name);
      expect(event.data.sequence_number).toBe(index);
    });
    expect(events[0].name).toBe('response.created');
    expect(events.at(-1)!.name).toBe('response.completed');
    expect(events.filter((event) => event.name === 'response.output_item.done')).toHaveLength(3);
  });

  it('an error frame is raised by the SDK', async () => {
    server.serveFrames([responsesErrorFrame('upstream went away')]);
    const client = new OpenAI({ baseURL: server.url, apiKey: 'k', maxRetries: 0 });
    await expect(collect(await client.responses.create({ model: 'm', input: 'x', stream: true }))).rejects.toThrow(
      /upstream went away/,
    );
  });
});
