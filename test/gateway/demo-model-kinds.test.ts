import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * The demo models are what they say: `demo/echo` chats and does not embed, `demo/embed` embeds and
 * does not chat. Each refusal is a 400 on `model` naming the demo model that does what was asked,
 * as OpenAI refuses embeddings on a chat model. Demo vectors are float32 values, so the float and
 * base64 answers are the same numbers.
 */
describe('demo chat and embeddings models', () => {
  let h: GatewayHarness;
  let openai: OpenAI;
  let anthropic: Anthropic;
  const EMBED_REFUSAL =
    "model 'demo/echo' does not support embeddings: it is a demo chat model; name demo/embed, the demo embeddings model";
  const CHAT_REFUSAL =
    "model 'demo/embed' does not support chat: it is the demo embeddings model (POST /v1/embeddings); name demo/echo, the demo chat model";

  beforeAll(async () => {
    h = await startGatewayHarness();
    const key = (await h.issueKey({ scopes: ['*'] })).key;
    openai = h.openaiClient(key);
    anthropic = h.anthropicClient(key);
  });
  afterAll(async () => h.close());

  const failure = <T>(call: Promise<T>) => call.then(() => undefined).catch((error: unknown) => error);

  it('refuses embeddings on demo/echo, naming demo/embed', async () => {
    const refused = await failure(openai.embeddings.create({ model: 'demo/echo', input: 'a' }));
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    expect((refused as InstanceType<typeof OpenAI.BadRequestError>).error).toMatchObject({
      type: 'invalid_request_error',
      param: 'model',
      message: EMBED_REFUSAL,
    });
  });

  it('refuses chat, Messages and Responses on demo/embed, naming demo/echo', async () => {
    const user = [{ role: 'user' as const, content: 'hi' }];
    const refusals = [
      await failure(openai.chat.completions.create({ model: 'demo/embed', messages: user })),
      await failure(openai.chat.completions.create({ model: 'demo/embed', messages: user, stream: true })),
      await failure(openai.responses.create({ model: 'demo/embed', input: 'hi' })),
    ];
    for (const refused of refusals) {
      expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
      expect((refused as InstanceType<typeof OpenAI.BadRequestError>).error).toMatchObject({
        param: 'model',
        message: CHAT_REFUSAL,
      });
    }
    const messages = await failure(anthropic.messages.create({ model: 'demo/embed', max_tokens: 16, messages: user }));
    expect(messages).toBeInstanceOf(Anthropic.BadRequestError);
    expect((messages as InstanceType<typeof Anthropic.BadRequestError>).error).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: CHAT_REFUSAL },
    });
  });

  it('still chats on demo/echo and embeds on demo/embed', async () => {
    const reply = await openai.chat.completions.create({
      model: 'demo/echo',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(reply.choices[0]!.message.content).toBe('hi');
    const vectors = await openai.embeddings.create({ model: 'demo/embed', input: 'hi' });
    expect(vectors.data[0]!.embedding).toHaveLength(256);
  });

  it('answers the same numbers as float and as base64 (the SDK default)', async () => {
    const input = ['the same input', 'and another'];
    const floats = await openai.embeddings.create({ model: 'demo/embed', input, encoding_format: 'float' });
    // The SDK asks for base64 and decodes float32 values when no format is given.
    const decoded = await openai.embeddings.create({ model: 'demo/embed', input });
    expect(decoded.data.map((item) => item.embedding)).toEqual(floats.data.map((item) => item.embedding));
    for (const value of floats.data[0]!.embedding) expect(Math.fround(value)).toBe(value);
  });
});
