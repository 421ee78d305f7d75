import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HARNESS_LLM, startGatewayHarness, type GatewayHarness } from './support/harness.js';
import { startOpenAIUpstream, type OpenAIUpstream } from '../support/upstreams/index.js';

/**
 * What a request means reaches the model it is sent to, or the client is told why not: settings
 * that exist on both sides are carried, settings a provider would refuse are refused here with the
 * field named, and nothing is changed or dropped without a word.
 */

/** An OpenAI-compatible server configured as `provider: openai`, the example configuration's Ollama shape. */
const COMPATIBLE = 'ollama-shaped';
/** OpenAI itself, by its address: used only for requests refused before any call. */
const OPENAI_ITSELF = 'openai-itself';
const CLAUDE = 'claude-opus-4-7';
const messages = [{ role: 'user' as const, content: 'hi' }];

describe('translation fidelity', () => {
  let h: GatewayHarness;
  let compatible: OpenAIUpstream;
  let key: string;
  let openai: OpenAI;
  let anthropic: Anthropic;

  beforeAll(async () => {
    compatible = await startOpenAIUpstream({ acceptTopK: true });
    h = await startGatewayHarness({
      llm: { ...HARNESS_LLM, allowed_models: [...HARNESS_LLM.allowed_models, COMPATIBLE, OPENAI_ITSELF] },
      deployments: [
        { model: COMPATIBLE, provider: 'openai', base_url: compatible.url, upstream_model: 'llama3.1' },
        { model: OPENAI_ITSELF, provider: 'openai', base_url: 'https://api.openai.com/v1', api_key: 'sk-unused-0123' },
      ],
    });
    key = (await h.issueKey({ scopes: ['*'] })).key;
    openai = h.openaiClient(key);
    anthropic = h.anthropicClient(key);
  });
  beforeEach(() => {
    compatible.reset();
    h.openai.reset();
    h.anthropic.reset();
  });
  afterAll(async () => {
    await h?.close();
    await compatible?.close();
  });

  /** A raw chat completions call (for bodies the SDK or JavaScript cannot write), answered status and JSON. */
  const rawChat = async (body: string): Promise<{ status: number; body: any }> => {
    const response = await fetch(`${h.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body,
    });
    return { status: response.status, body: await response.json() };
  };
  const chat = (fields: Record<string, unknown>) => rawChat(JSON.stringify({ messages, ...fields }));
  const refusal = async (request: Promise<unknown>): Promise<InstanceType<typeof OpenAI.BadRequestError>> => {
    const error = await request.then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    return error as InstanceType<typeof OpenAI.BadRequestError>;
  };

  describe('provider: openai at an address other than OpenAI', () => {
    it('takes more than four stop sequences and gets top_k from a Messages client, as a compatible server', async () => {
      const stops = ['a', 'b', 'c', 'd', 'e'];
      // A variable: this SDK version's types leave top_k out, though Anthropic's API takes it.
      const params = { model: COMPATIBLE, max_tokens: 20, messages, stop_sequences: stops, top_k: 5 };
      const message = await anthropic.messages.create(params);
      expect(message.content[0]).toMatchObject({ type: 'text' });
      expect(compatible.lastRequest()!.body).toMatchObject({ model: 'llama3.1', stop: stops, top_k: 5 });
    });

    it('still holds OpenAI itself (found by its address) to its four stop sequences', async () => {
      const error = await anthropic.messages
        .create({ model: OPENAI_ITSELF, max_tokens: 20, messages, stop_sequences: ['a', 'b', 'c', 'd', 'e'] })
        .catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(Anthropic.BadRequestError);
      expect((error as Error).message).toContain('stop_sequences: OpenAI models take at most 4 stop sequences, got 5');
    });
  });

  describe('chat completions to Claude', () => {
    it('maps top_k, and leaves out the -1 or 0 that turn it off elsewhere', async () => {
      await openai.chat.completions.create({ model: CLAUDE, messages, top_k: 5 } as never);
      expect(h.anthropic.lastRequest()!.body.top_k).toBe(5);
      for (const off of [-1, 0]) {
        expect((await chat({ model: CLAUDE, top_k: off })).status).toBe(200);
        expect(h.anthropic.lastRequest()!.body).not.toHaveProperty('top_k');
      }
    });

    it('refuses a top_k that is no integer, naming it', async () => {
      const answer = await chat({ model: CLAUDE, top_k: 2.5 });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({ param: 'top_k' });
      expect(answer.body.error.message).toMatch(/^top_k must be an integer/);
    });
  });

  describe('user: null is absent', () => {
    it('on chat completions, natively and to Claude', async () => {
      expect((await chat({ model: 'gpt-4o-mini', user: null })).status).toBe(200);
      expect((await chat({ model: CLAUDE, user: null })).status).toBe(200);
      expect(h.anthropic.lastRequest()!.body).not.toHaveProperty('metadata');
    });

    it('on Responses, translated to Claude and to chat completions', async () => {
      for (const model of [CLAUDE, 'gpt-4o-mini']) {
        const response = await openai.responses.create({ model, input: 'hi', user: null } as never);
        expect(response.status).toBe('completed');
        expect(response.user ?? null).toBeNull();
      }
      expect(h.anthropic.lastRequest()!.body).not.toHaveProperty('metadata');
      expect(h.openai.lastRequest()!.body).not.toHaveProperty('user');
    });
  });

  describe('tool_choice that must choose a tool, in a request without tools', () => {
    const mustChoose = 'tool_choice: a tool must be chosen, but the request has no tools; send tools';

    it('is refused on chat completions for Claude and the demo model, required or named', async () => {
      for (const model of [CLAUDE, 'demo/echo'])
        for (const toolChoice of ['required', { type: 'function', function: { name: 'f' } }] as const) {
          const error = await refusal(openai.chat.completions.create({ model, messages, tool_choice: toolChoice }));
          expect(error.message).toContain(mustChoose);
          expect(error.param).toBe('tool_choice');
        }
      expect(h.anthropic.requests).toHaveLength(0);
    });

    it('is refused on Messages for the demo model and a chat completions model', async () => {
      for (const model of ['demo/echo', 'gpt-4o-mini'])
        for (const toolChoice of [{ type: 'any' }, { type: 'tool', name: 'f' }] as const) {
          const error = await anthropic.messages
            .create({ model, max_tokens: 20, messages, tool_choice: toolChoice })
            .catch((thrown: unknown) => thrown);
          expect(error).toBeInstanceOf(Anthropic.BadRequestError);
          expect((error as Error).message).toContain(mustChoose);
        }
      expect(h.openai.requests).toHaveLength(0);
    });

    it('is refused on Responses for Claude, a chat completions model and the demo model', async () => {
      for (const model of [CLAUDE, 'gpt-4o-mini', 'demo/echo']) {
        const error = await refusal(openai.responses.create({ model, input: 'hi', tool_choice: 'required' }));
        expect(error.message).toContain(mustChoose);
      }
      expect(h.anthropic.requests).toHaveLength(0);
      expect(h.openai.requests).toHaveLength(0);
    });

    it('is forwarded as sent on the native chat path, where the provider decides', async () => {
      await openai.chat.completions.create({ model: 'gpt-4o-mini', messages, tool_choice: 'required' });
      expect(h.openai.lastRequest()!.body).toMatchObject({ tool_choice: 'required' });
    });

    it('auto and none mean nothing without tools and are still taken', async () => {
      for (const model of [CLAUDE, 'demo/echo'])
        for (const toolChoice of ['auto', 'none'] as const)
          await openai.chat.completions.create({ model, messages, tool_choice: toolChoice });
    });
  });

  describe('stream_options without stream: true', () => {
    it('is refused naming stream_options, on every path', async () => {
      for (const model of ['gpt-4o-mini', CLAUDE, 'demo/echo', COMPATIBLE])
        for (const stream of [undefined, false]) {
          const answer = await chat({ model, stream, stream_options: { include_usage: true } });
          expect(answer.status).toBe(400);
          expect(answer.body.error).toMatchObject({ type: 'invalid_request_error', param: 'stream_options' });
          expect(answer.body.error.message).toMatch(/^stream_options is only allowed when stream is true/);
        }
      expect(h.openai.requests).toHaveLength(0);
      expect(h.anthropic.requests).toHaveLength(0);
    });

    it('is taken null, or with stream: true', async () => {
      expect((await chat({ model: 'gpt-4o-mini', stream_options: null })).status).toBe(200);
      const stream = await openai.chat.completions.create({
        model: CLAUDE,
        messages,
        stream: true,
        stream_options: { include_usage: true },
      });
      let usage: unknown;
      for await (const chunk of stream) usage = chunk.usage ?? usage;
      expect(usage).toBeTruthy();
    });
  });

  describe('seed beyond what a double holds exactly', () => {
    it('is refused naming seed and why, rather than changed on its way', async () => {
      for (const seed of ['9007199254740993', '-9007199254740993', '18446744073709551615']) {
        const answer = await rawChat(
          `{"model":"gpt-4o-mini","messages":[{"role":"user","content":"hi"}],"seed":${seed}}`,
        );
        expect(answer.status).toBe(400);
        expect(answer.body.error.param).toBe('seed');
        expect(answer.body.error.message).toBe(
          `seed must be an integer from -9007199254740991 to 9007199254740991 (2^53 - 1): the gateway reads JSON numbers as 64-bit floats, which would change a larger seed`,
        );
      }
      expect(h.openai.requests).toHaveLength(0);
    });

    it('reaches the model exactly up to 2^53 - 1, and a fraction is refused as no integer', async () => {
      const answer = await rawChat(
        '{"model":"gpt-4o-mini","messages":[{"role":"user","content":"hi"}],"seed":9007199254740991}',
      );
      expect(answer.status).toBe(200);
      expect(h.openai.lastRequest()!.rawBody).toContain('"seed":9007199254740991');
      const fraction = await chat({ model: 'gpt-4o-mini', seed: 1.5 });
      expect(fraction.status).toBe(400);
      expect(fraction.body.error).toMatchObject({ param: 'seed', message: 'seed must be an integer, got 1.5' });
    });
  });
});
