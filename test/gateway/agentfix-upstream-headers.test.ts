import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { beforeEach, describe, expect, it } from 'vitest';
import { harnessWithKey, type GatewayHarness } from './support/harness.js';

/**
 * On the native Messages path the body is the client's, written for the `anthropic-version` it sent,
 * so that version goes upstream with it; a translated body is the gateway's, sent with the version it
 * is written for. Every upstream call says it comes from the gateway (`User-Agent: gatehouse/<version>`).
 */
describe('headers of upstream calls', () => {
  const context = harnessWithKey();
  let h: GatewayHarness;
  beforeEach(() => {
    h = context.harness;
    h.anthropic.reset();
    h.openai.reset();
  });

  const VERSION = '2024-10-22';
  const anthropicWith = (headers: Record<string, string>) =>
    new Anthropic({ baseURL: h.url, apiKey: context.key, maxRetries: 0, defaultHeaders: headers });

  it("forwards the client's anthropic-version on the native path, messages and counts alike", async () => {
    const client = anthropicWith({ 'anthropic-version': VERSION });
    // The SDK's types no longer have `temperature` (newer Claude models refuse it); clients still send it.
    await client.messages.create({
      model: 'claude-opus-4-7',
      max_tokens: 16,
      temperature: 1.5,
      messages: [{ role: 'user', content: 'hi' }],
    } as Anthropic.MessageCreateParamsNonStreaming);
    const sent = h.anthropic.lastRequest()!;
    expect(sent.headers['anthropic-version']).toBe(VERSION);
    // The clamp to Anthropic's range holds whatever the version.
    expect(sent.body.temperature).toBe(1);
    await client.messages.countTokens({ model: 'claude-opus-4-7', messages: [{ role: 'user', content: 'hi' }] });
    expect(h.anthropic.lastRequest()!.path).toBe('/v1/messages/count_tokens');
    expect(h.anthropic.lastRequest()!.headers['anthropic-version']).toBe(VERSION);
  });

  it('sends 2023-06-01 when the client sent no version, and on translated paths', async () => {
    const answer = await fetch(`${h.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': context.key, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'claude-opus-4-7', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(answer.status).toBe(200);
    expect(h.anthropic.lastRequest()!.headers['anthropic-version']).toBe('2023-06-01');

    const chat = new OpenAI({
      baseURL: `${h.url}/v1`,
      apiKey: context.key,
      maxRetries: 0,
      defaultHeaders: { 'anthropic-version': VERSION },
    });
    await chat.chat.completions.create({ model: 'claude-opus-4-7', messages: [{ role: 'user', content: 'hi' }] });
    expect(h.anthropic.lastRequest()!.headers['anthropic-version']).toBe('2023-06-01');
  });

  it("says gatehouse/<version> as User-Agent to every upstream, not the client's", async () => {
    await h.anthropicClient(context.key).messages.create({
      model: 'claude-opus-4-7',
      max_tokens: 16,
      messages: [{ role: 'user', content: 'hi' }],
    });
    await h.openaiClient(context.key).chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi' }],
    });
    await h.openaiClient(context.key).embeddings.create({ model: 'text-embedding-3-small', input: 'hi' });
    const agents = [h.anthropic.lastRequest()!, ...h.openai.requests].map((request) => request.headers['user-agent']);
    expect(agents).toEqual(['gatehouse/0.1.0', 'gatehouse/0.1.0', 'gatehouse/0.1.0']);
  });
});
