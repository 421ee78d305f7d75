import type OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TEST_MASTER_KEY } from '../support/temp-servers.js';
import { responsesTestBed } from '../support/responses-test-bed.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

const PROMPT = 'tell me the launch codes and then goodbye forever';
const PATTERN = 'launch\\s+codes';

/** Answer patterns with the cache, PII mask mode, per-key and per-model overrides, and the admin API. */
describe('answer patterns in their scopes', () => {
  let h: GatewayHarness;
  let openai: OpenAI;
  let other: OpenAI;
  let otherId: string;

  beforeAll(async () => {
    h = await startGatewayHarness({
      cache: { enabled: true },
      pii: { mode: 'mask', entities: ['email'] },
      content_policy: { blocked_answer_patterns: [PATTERN, 'ada@example\\.com'] },
    });
    openai = h.openaiClient((await h.issueKey({ scopes: ['chat', 'responses'] })).key);
    const second = await h.issueKey({ scopes: ['chat', 'responses'] });
    otherId = second.id;
    other = h.openaiClient(second.key);
  });
  beforeEach(async () => {
    h.openai.reset();
    await h.admin('POST', '/internal/cache/purge', {});
  });
  afterAll(() => h.close());

  const ask = (content: string) => ({
    model: 'gpt-4o-mini',
    temperature: 0,
    messages: [{ role: 'user' as const, content }],
  });
  const settled = () => new Promise((resolve) => setTimeout(resolve, 50));

  it('never caches a stopped answer, whole or streamed', async () => {
    for (let turn = 0; turn < 2; turn += 1) {
      const { data, response } = await openai.chat.completions.create(ask(PROMPT)).withResponse();
      expect(data.choices[0]!.finish_reason).toBe('content_filter');
      expect(response.headers.get('x-cache-hit')).toBe('false');
      const stream = await openai.chat.completions.create({ ...ask(PROMPT), stream: true });
      for await (const _chunk of stream);
      await settled();
    }
    expect(h.openai.requests).toHaveLength(4);
  });

  it('checks an answer replayed from the cache', async () => {
    const passing = 'tell me about the launch window';
    const first = await openai.chat.completions.create(ask(passing));
    expect(first.choices[0]!.finish_reason).toBe('stop');
    const streamed = await openai.chat.completions.create({ ...ask(passing), stream: true });
    for await (const _chunk of streamed);
    await settled();
    await h.admin('PUT', '/internal/content-policy', { blocked_answer_patterns: ['launch\\s+window'] });
    try {
      const { data, response } = await openai.chat.completions.create(ask(passing)).withResponse();
      expect(response.headers.get('x-cache-hit')).toBe('true');
      expect(data.choices[0]!.finish_reason).toBe('content_filter');
      expect(data.choices[0]!.message.content).toBeNull();
      const replay = await openai.chat.completions.create({ ...ask(passing), stream: true }).withResponse();
      expect(replay.response.headers.get('x-cache-hit')).toBe('true');
      let text = '';
      let finish: unknown;
      for await (const chunk of replay.data) {
        text += chunk.choices[0]?.delta.content ?? '';
        finish = chunk.choices[0]?.finish_reason ?? finish;
      }
      expect(text).not.toMatch(/window/);
      expect(finish).toBe('content_filter');
      expect(h.openai.requests).toHaveLength(2);
    } finally {
      await h.admin('PUT', '/internal/content-policy', { reset: true });
    }
  });

  it('reads the answer as the client gets it, PII originals restored, and records no original', async () => {
    const content = 'write to ada@example.com and then goodbye';
    const whole = await openai.chat.completions.create(ask(content));
    expect(whole.choices[0]!.finish_reason).toBe('content_filter');
    // The upstream saw and answered the placeholder; the original is what matched.
    expect(JSON.stringify(h.openai.lastRequest()!.body)).not.toContain('ada@example.com');
    const stream = await openai.chat.completions.create({ ...ask(content), stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).not.toMatch(/ada@example\.com|goodbye/);
    const traffic = (await h.admin('GET', '/internal/traffic?limit=2')).body.data as any[];
    for (const event of traffic) {
      expect(event.guardrails.answer_stopped.pattern).toBe('ada@example\\.com');
      expect(JSON.stringify(event)).not.toContain('ada@example.com');
    }
  });

  it('a key override of [] lifts the inherited list; a model override replaces it', async () => {
    const put = await h.admin('PUT', '/internal/content-policy', {
      keys: { [otherId]: { blocked_answer_patterns: [] } },
      models: { 'gpt-4o-mini': { blocked_answer_patterns: ['goodbye'] } },
    });
    expect(put.status).toBe(200);
    try {
      const lifted = await other.chat.completions.create(ask(PROMPT));
      expect(lifted.choices[0]!.message.content).toBe(`You said: ${PROMPT}`);
      const replaced = await openai.chat.completions.create(ask('the launch codes, no farewell'));
      expect(replaced.choices[0]!.finish_reason).toBe('stop');
      const stopped = await openai.chat.completions.create(ask('goodbye'));
      expect(stopped.choices[0]!.finish_reason).toBe('content_filter');
    } finally {
      await h.admin('PUT', '/internal/content-policy', { reset: true });
    }
  });

  it('the admin API shows the field and refuses an invalid pattern naming the field and index', async () => {
    const view = (await h.admin('GET', '/internal/content-policy')).body;
    expect(view.blocked_answer_patterns).toEqual([PATTERN, 'ada@example\\.com']);
    const bad = await h.admin('PUT', '/internal/content-policy', { blocked_answer_patterns: ['ok', '(unclosed'] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/blocked_answer_patterns\[1\].*not a valid regular expression/);
    const badKey = await h.admin('PUT', '/internal/content-policy', {
      keys: { [otherId]: { blocked_answer_patterns: ['[x'] } },
    });
    expect(badKey.status).toBe(400);
    expect(badKey.body.error.message).toMatch(/blocked_answer_patterns\[0\]/);
  });
});

describe('answer patterns on native Responses', () => {
  const bed = responsesTestBed('sk-answer-policy-native-0123456789');

  beforeAll(async () => {
    const put = await fetch(`${bed.servers.gatewayUrl}/internal/content-policy`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ blocked_answer_patterns: [PATTERN] }),
    });
    expect(put.status).toBe(200);
  });

  it('stops a whole and a streamed answer: incomplete for content_filter, nothing after the match sent', async () => {
    const response = await bed.client.responses.create({ model: 'native-model', input: PROMPT });
    expect(response.status).toBe('incomplete');
    expect(response.incomplete_details).toEqual({ reason: 'content_filter' });
    expect(response.output).toEqual([]);
    const stream = bed.client.responses.stream({ model: 'native-model', input: PROMPT });
    let text = '';
    stream.on('response.output_text.delta', (event) => (text += event.delta));
    const final = await stream.finalResponse();
    expect(final.status).toBe('incomplete');
    expect(final.incomplete_details).toEqual({ reason: 'content_filter' });
    expect(final.usage?.input_tokens).toBeGreaterThan(0);
    expect(text).toMatch(/launch$/);
    expect(text).not.toMatch(/codes|goodbye/);
  });
});
