import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type OpenAI from 'openai';
import type { ResponseInputItem, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openAIClientWithNewKey } from '../support/sdk-clients.js';
import { startTempServers, type TempServers } from '../support/temp-servers.js';
import { startOpenAIUpstream, type OpenAIUpstream } from '../support/upstreams/index.js';
import { anthropicEvent as event, anthropicMessageStart } from './formats/stream-fixtures.js';

const KEY = 'sk-thinking-stream-0123456789';
const THINKING = 'I should read a.txt first.';
const SIGNATURE = 'sig-stream-EqQBCgIYAhIM';
const REDACTED = 'EmwKAhgBEgy3va3pzixStream';
const thinking = { type: 'thinking', thinking: THINKING, signature: SIGNATURE };
const redacted = { type: 'redacted_thinking', data: REDACTED };
const toolUse = { type: 'tool_use', id: 'toolu_01', name: 'read_file', input: { path: 'a.txt' } };

/** Claude's streamed answer: the thinking blocks asked for (signed, or redacted), then a call of read_file. */
function thinkingThenCall(blocks: ReadonlyArray<'thinking' | 'redacted'>): string[] {
  const frames = [anthropicMessageStart('msg_stream', 'claude-opus-4-7')];
  blocks.forEach((kind, index) => {
    if (kind === 'redacted') {
      frames.push(event('content_block_start', { index, content_block: redacted }));
    } else {
      frames.push(
        event('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } }),
        event('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: THINKING.slice(0, 9) } }),
        event('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: THINKING.slice(9) } }),
        event('content_block_delta', { index, delta: { type: 'signature_delta', signature: SIGNATURE } }),
      );
    }
    frames.push(event('content_block_stop', { index }));
  });
  const index = blocks.length;
  frames.push(
    event('content_block_start', {
      index,
      content_block: { type: 'tool_use', id: 'toolu_01', name: 'read_file', input: {} },
    }),
    event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: '{"path":"a.txt"}' } }),
    event('content_block_stop', { index }),
    event('message_delta', { delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 30 } }),
    event('message_stop', {}),
  );
  return frames;
}

/** Claude's whole answer to the loop's next turn. */
const DONE = {
  id: 'msg_done',
  type: 'message',
  role: 'assistant',
  model: 'claude-opus-4-7',
  content: [{ type: 'text', text: 'It says hello.' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
};

/**
 * A Responses client streaming a Claude model's tool loop gets the signed thinking in its reasoning
 * items' encrypted_content, as a whole answer has it, and sends it back to keep thinking on; a native
 * Responses upstream is never sent the gateway's own encrypted content.
 */
describe('Claude thinking carried by a streamed Responses answer', () => {
  let anthropic: Server;
  let native: OpenAIUpstream;
  let servers: TempServers;
  let client: OpenAI;
  /** What the Anthropic upstream was sent, and the streams it answers next. */
  const sentToClaude: Array<Record<string, any>> = [];
  let nextStream: string[] = [];

  beforeAll(async () => {
    anthropic = createServer((request, response) => {
      let text = '';
      request.on('data', (chunk: Buffer) => (text += chunk.toString()));
      request.on('end', () => {
        const body = JSON.parse(text) as Record<string, any>;
        sentToClaude.push(body);
        if (body.stream !== true)
          return response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(DONE));
        response.writeHead(200, { 'content-type': 'text/event-stream' }).end(nextStream.join(''));
      });
    });
    await new Promise<void>((resolve) => anthropic.listen(0, '127.0.0.1', resolve));
    native = await startOpenAIUpstream({ apiKey: KEY });
    servers = await startTempServers({
      llm: { allowed_models: ['claude-opus-4-7', 'native-model'] },
      gateway: { max_retries: 0 },
      deployments: [
        {
          id: 'claude',
          model: 'claude-opus-4-7',
          provider: 'anthropic',
          base_url: `http://127.0.0.1:${(anthropic.address() as AddressInfo).port}`,
          api_key: KEY,
        },
        {
          id: 'native',
          model: 'native-model',
          provider: 'openai',
          base_url: native.url,
          api_key: KEY,
          responses_api: 'native',
        },
      ],
    });
    client = await openAIClientWithNewKey(servers, { scopes: ['responses'] });
  });
  beforeEach(() => {
    sentToClaude.length = 0;
    native.reset();
  });
  afterAll(async () => {
    await servers.stop();
    await native.close();
    await new Promise((resolve) => anthropic.close(resolve));
  });

  const tools = [
    {
      type: 'function' as const,
      name: 'read_file',
      parameters: { type: 'object', properties: { path: { type: 'string' } } },
      strict: false,
    },
  ];

  /** Streams the loop's first turn with `frames` from Claude; its events and `response.completed`'s Response. */
  async function streamFirstTurn(frames: string[], options: { store: boolean; include?: boolean }) {
    nextStream = frames;
    const stream = client.responses.stream({
      model: 'claude-opus-4-7',
      input: 'Read a.txt',
      reasoning: { effort: 'high' },
      store: options.store,
      ...(options.include ? { include: ['reasoning.encrypted_content' as const] } : {}),
      tools,
    });
    const events: ResponseStreamEvent[] = [];
    for await (const streamed of stream) events.push(streamed);
    // As sent: finalResponse() adds the SDK's parsed fields to it.
    const completed = events.find((streamed) => streamed.type === 'response.completed');
    if (completed?.type !== 'response.completed') throw new Error('the stream did not complete');
    return { events, response: completed.response };
  }

  /** The output items each `response.output_item.done` event carried. */
  const doneItems = (events: readonly ResponseStreamEvent[]) =>
    events.flatMap((streamed) => (streamed.type === 'response.output_item.done' ? [streamed.item] : []));

  /** The loop's next turn, stateless: the answer's items go back in input, then the call's output. */
  const sendBack = (model: string, output: readonly unknown[]) => {
    const call = output.find((item) => (item as { type: string }).type === 'function_call') as { call_id: string };
    return client.responses.create({
      model,
      input: [
        { role: 'user', content: 'Read a.txt' },
        ...(output as ResponseInputItem[]),
        { type: 'function_call_output', call_id: call.call_id, output: 'hello' },
      ],
      reasoning: { effort: 'high' },
      store: false,
      tools,
    });
  };

  it('carries the signed thinking in the reasoning item when included, and sends it back leading the call', async () => {
    const plain = await streamFirstTurn(thinkingThenCall(['thinking', 'redacted']), { store: false });
    expect(plain.response.output.find((item) => item.type === 'reasoning')).not.toHaveProperty('encrypted_content');

    const { events, response } = await streamFirstTurn(thinkingThenCall(['thinking', 'redacted']), {
      store: false,
      include: true,
    });
    const reasoning = response.output.find((item) => item.type === 'reasoning');
    expect(reasoning?.summary).toEqual([{ type: 'summary_text', text: THINKING }]);
    expect(reasoning?.encrypted_content).toEqual(expect.any(String));
    expect(reasoning?.encrypted_content).not.toContain(SIGNATURE);
    // Each item's done event says it as the final Response does.
    expect(doneItems(events)).toEqual(response.output);

    sentToClaude.length = 0;
    await sendBack('claude-opus-4-7', response.output);
    expect(sentToClaude[0]!.thinking).toEqual({ type: 'enabled', budget_tokens: 4096 });
    expect(sentToClaude[0]!.messages[1]).toEqual({ role: 'assistant', content: [thinking, redacted, toolUse] });
  });

  it('holds redacted-only thinking in a reasoning item with no summary', async () => {
    const { events, response } = await streamFirstTurn(thinkingThenCall(['redacted']), { store: false, include: true });
    expect(response.output.map((item) => item.type)).toEqual(['reasoning', 'function_call']);
    expect(response.output[0]).toMatchObject({ type: 'reasoning', summary: [], encrypted_content: expect.any(String) });
    expect(doneItems(events)).toEqual(response.output);

    sentToClaude.length = 0;
    await sendBack('claude-opus-4-7', response.output);
    expect(sentToClaude[0]!.messages[1]).toEqual({ role: 'assistant', content: [redacted, toolUse] });
  });

  it('completes with the Response as kept, which previous_response_id sends back with its thinking', async () => {
    const { response } = await streamFirstTurn(thinkingThenCall(['thinking']), { store: true });
    expect(response.output.find((item) => item.type === 'reasoning')?.encrypted_content).toEqual(expect.any(String));
    // As sent too: the SDK adds output_text to what retrieve() returns.
    const retrieved: unknown = await (await client.responses.retrieve(response.id).asResponse()).json();
    expect(retrieved).toEqual(response);

    sentToClaude.length = 0;
    const call = response.output.find((item) => item.type === 'function_call')!;
    await client.responses.create({
      model: 'claude-opus-4-7',
      previous_response_id: response.id,
      input: [{ type: 'function_call_output', call_id: call.call_id, output: 'hello' }],
      reasoning: { effort: 'high' },
      tools,
    });
    expect(sentToClaude[0]!.messages[1]).toEqual({ role: 'assistant', content: [thinking, toolUse] });
  });

  it('leaves the carried thinking out of what a stateless client sends a native Responses model', async () => {
    const { response } = await streamFirstTurn(thinkingThenCall(['thinking']), { store: false, include: true });
    const carrier = response.output.find((item) => item.type === 'reasoning')!;
    expect(carrier.encrypted_content).toEqual(expect.any(String));

    await sendBack('native-model', response.output);
    const input = native.lastRequest()!.body.input as Array<Record<string, unknown>>;
    expect(input.map((item) => item.type ?? 'message')).toEqual(['message', 'function_call', 'function_call_output']);
    expect(JSON.stringify(input)).not.toContain(carrier.encrypted_content!);
  });
});
