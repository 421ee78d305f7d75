import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

// On a translated path an unknown parameter is dropped, so one that is a typo of a known parameter is
// refused as the provider itself would refuse it, naming the parameter meant.

let h: GatewayHarness;
let openai: OpenAI;
let anthropic: Anthropic;

beforeAll(async () => {
  h = await startGatewayHarness();
  const key = (await h.issueKey({ scopes: ['chat'] })).key;
  openai = h.openaiClient(key);
  anthropic = h.anthropicClient(key);
});
afterAll(() => h.close());
beforeEach(() => {
  h.openai.reset();
  h.anthropic.reset();
});

const chat = (model: string, extra: Record<string, unknown>) =>
  openai.chat.completions.create({
    model,
    max_tokens: 16,
    messages: [{ role: 'user', content: 'hi' }],
    ...extra,
  } as OpenAI.ChatCompletionCreateParamsNonStreaming);

const message = (model: string, extra: Record<string, unknown>) =>
  anthropic.messages.create({
    model,
    max_tokens: 16,
    messages: [{ role: 'user', content: 'hi' }],
    ...extra,
  } as Anthropic.MessageCreateParamsNonStreaming);

describe('a misspelt parameter on a translated path', () => {
  it('chat to a Claude model: 400 naming it and the parameter meant, before any upstream call', async () => {
    const error = (await chat('claude-opus-4-7', { temprature: 0.2 }).catch((e: unknown) => e)) as InstanceType<
      typeof OpenAI.BadRequestError
    >;
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error.message).toContain(
      "temprature: unknown parameter of the Chat Completions API; did you mean 'temperature'?",
    );
    expect(error.param).toBe('temprature');
    expect(h.anthropic.requests).toHaveLength(0);
  });

  it('Messages to an OpenAI model: 400 in the Messages envelope', async () => {
    const error = (await message('gpt-4o-mini', { stop_sequence: ['x'] }).catch((e: unknown) => e)) as InstanceType<
      typeof Anthropic.BadRequestError
    >;
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(error.message).toContain(
      "stop_sequence: unknown parameter of the Messages API; did you mean 'stop_sequences'?",
    );
    expect(h.openai.requests).toHaveLength(0);
  });

  it('a parameter like no known one, or a known extension, is still dropped, not refused', async () => {
    await chat('claude-opus-4-7', { gatehouse_trace_label: 'x', top_k: 5 });
    expect(h.anthropic.requests).toHaveLength(1);
    await message('gpt-4o-mini', { context_management: { edits: [] }, brand_new_option: true });
    expect(h.openai.requests).toHaveLength(1);
    expect(h.openai.requests[0]!.body).not.toHaveProperty('brand_new_option');
  });

  it('on a native path the provider decides: the typo reaches it', async () => {
    await chat('gpt-4o-mini', { temprature: 0.2 });
    expect(h.openai.requests[0]!.body).toMatchObject({ temprature: 0.2 });
  });
});
