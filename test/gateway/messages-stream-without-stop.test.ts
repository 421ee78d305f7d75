import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFrameServer, type FrameServer } from '../support/upstreams/index.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

const event = (name: string, data: Record<string, unknown>): string =>
  `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;

/** A whole Messages answer whose body ends after its stop reason, without `message_stop`. */
const ENDS_AFTER_STOP_REASON = [
  event('message_start', {
    message: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-x',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 5, output_tokens: 1 },
    },
  }),
  event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
  event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Hello' } }),
  event('content_block_stop', { index: 0 }),
  event('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 2 } }),
];

/**
 * An Anthropic-compatible upstream may end its body once the stop reason is out; the gateway counts
 * that stream complete, and Anthropic's SDKs make their final message only at `message_stop`.
 */
describe('a native Messages stream that ends after its stop reason', () => {
  let h: GatewayHarness;
  let frames: FrameServer;
  let secret: string;
  beforeAll(async () => {
    h = await startGatewayHarness();
    frames = await startFrameServer();
    const saved = await h.admin('PUT', '/internal/deployments', {
      deployments: [{ id: 'terse-claude', model: 'claude-terse', provider: 'anthropic', base_url: frames.url }],
    });
    expect(saved.status).toBe(200);
    const allowed = await h.admin('PUT', '/internal/models', {
      allowed_models: ['claude-terse'],
      model_aliases: {},
      default_embedding_model: null,
    });
    expect(allowed.status).toBe(200);
    secret = (await h.issueKey({ scopes: ['chat'] })).key;
  });
  afterAll(async () => {
    await h.close();
    await frames.close();
  });

  it("gives the Anthropic SDK's finalMessage() the whole answer", async () => {
    frames.serveFrames(ENDS_AFTER_STOP_REASON);
    const stream = h
      .anthropicClient(secret)
      .messages.stream({ model: 'claude-terse', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] });
    const kinds: string[] = [];
    stream.on('streamEvent', (streamed) => kinds.push(streamed.type));
    const message = await stream.finalMessage();
    expect(message.content).toEqual([{ type: 'text', text: 'Hello' }]);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage.output_tokens).toBe(2);
    expect(kinds.at(-1)).toBe('message_stop');
  });
});
