import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';

const BLOCKED = 'Tell me the LAUNCH CODES please';

/** Blocked patterns and the input token limit on every endpoint, through the official SDKs. */
describe('content policy', () => {
  let h: GatewayHarness;
  let openai: OpenAI;
  let anthropic: Anthropic;
  let keyId: string;
  let secret: string;

  beforeAll(async () => {
    h = await startGatewayHarness({
      content_policy: { blocked_patterns: ['launch\\s+codes', '\\bforbidden\\b'], max_input_tokens: 50 },
    });
    const key = await h.issueKey({ scopes: ['chat', 'embeddings', 'responses'] });
    keyId = key.id;
    secret = key.key;
    openai = h.openaiClient(secret);
    anthropic = h.anthropicClient(secret);
  });
  beforeEach(() => {
    h.openai.reset();
    h.anthropic.reset();
  });
  afterAll(() => h.close());

  const upstreamCalls = () => h.openai.requests.length + h.anthropic.requests.length;

  async function expectRefused(call: Promise<unknown>, reason: RegExp, sdk: 'openai' | 'anthropic' = 'openai') {
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(sdk === 'openai' ? OpenAI.BadRequestError : Anthropic.BadRequestError);
    const body = (error as { error?: any }).error;
    const type = sdk === 'openai' ? (error as { type?: string }).type : body?.error?.type;
    expect(type).toBe('content_policy_violation');
    expect((error as Error).message).toMatch(reason);
    expect(upstreamCalls()).toBe(0);
  }

  it('refuses a blocked pattern, case-insensitively, on every endpoint, before any upstream call', async () => {
    const pattern = /blocked pattern "launch\\s\+codes" matched in/;
    await expectRefused(
      openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: BLOCKED }] }),
      pattern,
    );
    await expectRefused(
      openai.chat.completions.create({
        model: 'claude-opus-4-7',
        stream: true,
        messages: [{ role: 'system', content: BLOCKED }],
      }),
      /messages\[0\]\.content/,
    );
    await expectRefused(
      anthropic.messages.create({
        model: 'claude-opus-4-7',
        max_tokens: 10,
        messages: [{ role: 'user', content: [{ type: 'text', text: BLOCKED }] }],
      }),
      /launch.*matched in messages\[0\]\.content\[0\]\.text/,
      'anthropic',
    );
    await expectRefused(
      anthropic.messages.countTokens({ model: 'claude-opus-4-7', messages: [{ role: 'user', content: BLOCKED }] }),
      /launch.*matched in messages\[0\]\.content/,
      'anthropic',
    );
    await expectRefused(openai.responses.create({ model: 'gpt-4o-mini', input: BLOCKED }), /in input/);
    await expectRefused(
      openai.responses.create({
        model: 'gpt-4o-mini',
        input: [{ type: 'function_call_output', call_id: 'c', output: 'forbidden' }],
      }),
      /input\[0\]\.output/,
    );
    await expectRefused(
      openai.embeddings.create({ model: 'text-embedding-3-small', input: ['ok', BLOCKED] }),
      /input\[1\]/,
    );
    // Tool-call arguments are text the request carries too.
    await expectRefused(
      openai.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [
          {
            role: 'assistant',
            tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{"q":"forbidden"}' } }],
          },
          { role: 'tool', tool_call_id: 'c', content: 'ok' },
        ],
      }),
      /tool_calls\[0\]\.function\.arguments/,
    );
    const metrics = await (await fetch(`${h.url}/metrics`)).text();
    expect(metrics).toMatch(/gateway_content_policy_blocks_total 8/);
  });

  it('refuses an input over max_input_tokens, counted with the real tokenizer', async () => {
    // 49 tokens of o200k_base (" word" is one token each): within the limit of 50, although well over 50 bytes.
    const fits = `word${' word'.repeat(48)}`;
    await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: fits }] });
    expect(h.openai.requests).toHaveLength(1);
    h.openai.reset();
    await expectRefused(
      openai.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [
          { role: 'system', content: 'word word' },
          { role: 'user', content: fits },
        ],
      }),
      /over the limit of 50 tokens/,
    );
    const traffic = (await h.admin('GET', '/internal/traffic?limit=2')).body.data;
    expect(traffic[1].guardrails).toEqual({ content_policy: 'passed', input_tokens: 49 });
    expect(traffic[0].guardrails.content_policy).toBe('refused');
    expect(traffic[0].guardrails.blocked).toEqual({
      stage: 'content_policy',
      reason: 'the input is over the limit of 50 tokens (content_policy.max_input_tokens)',
    });
    // Nothing was forwarded, so the traffic view records no request body.
    expect(traffic[0].request_body).toBeNull();
  });

  it('changes apply live and persist; per-key and per-model overrides take precedence', async () => {
    expect((await h.admin('GET', '/internal/content-policy')).body).toMatchObject({
      source: 'config',
      blocked_patterns: ['launch\\s+codes', '\\bforbidden\\b'],
    });
    const other = h.openaiClient((await h.issueKey({ scopes: ['chat'] })).key);
    const ask = (content: string, model = 'gpt-4o-mini', client = openai) =>
      client.chat.completions.create({ model, messages: [{ role: 'user', content }] });
    await ask('pineapple pizza');
    const put = await h.admin('PUT', '/internal/content-policy', { blocked_patterns: ['pineapple'] });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ source: 'database', blocked_patterns: ['pineapple'], max_input_tokens: 50 });
    h.openai.reset();
    await expectRefused(ask('PINEAPPLE pizza'), /pineapple/);
    // The key's override lifts the patterns; the model's raises the token limit; the key's wins over the model's.
    await h.admin('PUT', '/internal/content-policy', {
      keys: { [keyId]: { blocked_patterns: [] } },
      models: { 'gpt-4o-mini': { blocked_patterns: ['pizza'], max_input_tokens: 1000 } },
    });
    await ask(`pineapple pizza ${'word '.repeat(100)}`);
    await ask('pineapple', 'claude-opus-4-7');
    expect(upstreamCalls()).toBe(2);
    h.openai.reset();
    h.anthropic.reset();
    // Another key: the model's override on its model, the gateway's elsewhere.
    await expectRefused(ask('pizza', 'gpt-4o-mini', other), /pizza/);
    await ask(`pineapple ${'word '.repeat(100)}`.replace('pineapple', 'apple'), 'gpt-4o-mini', other);
    h.openai.reset();
    await expectRefused(ask('pineapple', 'claude-opus-4-7', other), /pineapple/);
    const audit = (await h.admin('GET', '/internal/audit?action=content_policy.update')).body.data;
    expect(audit.length).toBeGreaterThanOrEqual(2);
    // Reset returns to the configuration file's settings.
    const reset = await h.admin('PUT', '/internal/content-policy', { reset: true });
    expect(reset.body).toMatchObject({ source: 'config', models: {}, keys: {} });
    await ask('pineapple');
  });

  it('validates settings, naming the field: patterns, aliases, unknown keys, reset with fields', async () => {
    const bad = await h.admin('PUT', '/internal/content-policy', { blocked_patterns: ['ok', '(unclosed'] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/blocked_patterns\[1\].*not a valid regular expression/);
    const alias = await h.admin('PUT', '/internal/pii', { models: { fast: { mode: 'redact' } } });
    expect(alias.status).toBe(400);
    expect(alias.body.error.message).toBe(
      "models.fast: 'fast' is not an allowed model; it is an alias: name its target 'gpt-4o-mini'",
    );
    const key = await h.admin('PUT', '/internal/pii', { keys: { nope: { mode: 'off' } } });
    expect(key.body.error.message).toBe("keys.nope: no API key with id 'nope'");
    const mode = await h.admin('PUT', '/internal/pii', { mode: 'shred' });
    expect(mode.status).toBe(400);
    expect(mode.body.error.message).toMatch(/mode/);
    const both = await h.admin('PUT', '/internal/pii', { reset: true, mode: 'mask' });
    expect(both.body.error.message).toMatch(/reset cannot be combined with mode/);
    const noAuth = await fetch(`${h.url}/internal/pii`);
    expect(noAuth.status).toBe(401);
  });
});
