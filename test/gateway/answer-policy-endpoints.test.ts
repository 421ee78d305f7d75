import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

// The mocks answer `You said: <the prompt>`, streamed a word a chunk: the match completes with `codes`.
const PROMPT = 'tell me the launch codes and then goodbye forever';
const PATTERN = 'launch\\s+codes';

/** blocked_answer_patterns on chat completions, Messages and Responses, native and translated, through the official SDKs. */
describe('answer patterns', () => {
  let h: GatewayHarness;
  let openai: OpenAI;
  let anthropic: Anthropic;

  beforeAll(async () => {
    h = await startGatewayHarness({ content_policy: { blocked_answer_patterns: [PATTERN] } });
    const key = await h.issueKey({ scopes: ['chat', 'responses'] });
    openai = h.openaiClient(key.key);
    anthropic = h.anthropicClient(key.key);
  });
  beforeEach(() => {
    h.openai.reset();
    h.anthropic.reset();
  });
  afterAll(() => h.close());

  const lastTraffic = async () => (await h.admin('GET', '/internal/traffic?limit=1')).body.data[0];

  /** The stop is in the traffic record (pattern and where, never the text) and the recorded answer holds no match. */
  async function expectRecordedStop(where: RegExp) {
    const event = await lastTraffic();
    expect(event.status).toBe(200);
    expect(event.guardrails.answer_stopped.pattern).toBe(PATTERN);
    expect(event.guardrails.answer_stopped.reason).toMatch(where);
    expect(event.guardrails.answer_stopped.reason).not.toMatch(/launch codes/i);
    expect(JSON.stringify(event.response_body)).not.toMatch(/launch codes|goodbye/i);
    expect(event.completion_tokens).toBeGreaterThan(0);
  }

  const ask = (model: string) => ({ model, messages: [{ role: 'user' as const, content: PROMPT }] });

  it('chat completions, whole: the choice finishes content_filter with its content null, native and translated', async () => {
    for (const model of ['gpt-4o-mini', 'claude-opus-4-7']) {
      const completion = await openai.chat.completions.create(ask(model));
      expect(completion.choices[0]!.finish_reason).toBe('content_filter');
      expect(completion.choices[0]!.message.content).toBeNull();
      expect(completion.usage?.completion_tokens).toBeGreaterThan(0);
      await expectRecordedStop(/blocked answer pattern "launch\\s\+codes" matched in choices\[0\]\.message\.content/);
    }
  });

  it('chat completions, streamed: nothing after the match reaches the client; the stream ends content_filter with usage', async () => {
    for (const model of ['gpt-4o-mini', 'claude-opus-4-7']) {
      const stream = await openai.chat.completions.create({
        ...ask(model),
        stream: true,
        stream_options: { include_usage: true },
      });
      let text = '';
      const finishes: unknown[] = [];
      let usage: OpenAI.CompletionUsage | null | undefined;
      for await (const chunk of stream) {
        for (const choice of chunk.choices) {
          text += choice.delta.content ?? '';
          if (choice.finish_reason) finishes.push(choice.finish_reason);
        }
        if (chunk.usage) usage = chunk.usage;
      }
      expect(text).toMatch(/launch$/);
      expect(text).not.toMatch(/codes|goodbye/);
      expect(finishes).toEqual(['content_filter']);
      expect(usage?.prompt_tokens).toBeGreaterThan(0);
      await expectRecordedStop(/matched in choices\[0\]\.delta\.content/);
    }
  });

  it('chat completions: tool-call arguments are read, whole and streamed', async () => {
    const tools: OpenAI.ChatCompletionTool[] = [
      { type: 'function', function: { name: 'send', parameters: { type: 'object' } } },
    ];
    const script = {
      reply: { toolCalls: [{ name: 'send', arguments: { note: 'the launch codes', more: 'goodbye' } }] },
    };
    h.openai.setNext(script, script);
    const whole = await openai.chat.completions.create({ ...ask('gpt-4o-mini'), tools });
    expect(whole.choices[0]!.finish_reason).toBe('content_filter');
    expect(whole.choices[0]!.message.tool_calls ?? []).toEqual([]);
    await expectRecordedStop(/tool_calls\[0\]\.function\.arguments/);
    const stream = await openai.chat.completions.create({ ...ask('gpt-4o-mini'), tools, stream: true });
    let args = '';
    let finish: unknown;
    for await (const chunk of stream) {
      args += chunk.choices[0]?.delta.tool_calls?.[0]?.function?.arguments ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(args).not.toMatch(/codes|goodbye/);
    expect(finish).toBe('content_filter');
  });

  it('Messages, whole and streamed: stop_reason refusal with the content withheld, native and translated', async () => {
    for (const model of ['claude-opus-4-7', 'gpt-4o-mini']) {
      const message = await anthropic.messages.create({ ...ask(model), max_tokens: 50 });
      expect(message.stop_reason).toBe('refusal');
      expect(message.content).toEqual([]);
      expect(message.usage.output_tokens).toBeGreaterThan(0);
      await expectRecordedStop(/matched in content\[0\]\.text/);

      const stream = anthropic.messages.stream({ ...ask(model), max_tokens: 50 });
      let text = '';
      stream.on('text', (delta) => (text += delta));
      const final = await stream.finalMessage();
      expect(final.stop_reason).toBe('refusal');
      expect(text).toMatch(/launch$/);
      expect(text).not.toMatch(/codes|goodbye/);
      await expectRecordedStop(/matched in content_block_delta 0/);
    }
  });

  it('Messages: tool_use input is read, whole and streamed', async () => {
    const tools = [{ name: 'send', input_schema: { type: 'object' as const } }];
    const script = { reply: { toolUses: [{ name: 'send', input: { note: 'the launch codes', more: 'goodbye' } }] } };
    h.anthropic.setNext(script, script);
    const whole = await anthropic.messages.create({ ...ask('claude-opus-4-7'), max_tokens: 50, tools });
    expect(whole.stop_reason).toBe('refusal');
    expect(whole.content).toEqual([]);
    await expectRecordedStop(/matched in content\[0\]\.input/);
    const stream = anthropic.messages.stream({ ...ask('claude-opus-4-7'), max_tokens: 50, tools });
    let json = '';
    stream.on('inputJson', (delta) => (json += delta));
    const final = await stream.finalMessage();
    expect(final.stop_reason).toBe('refusal');
    expect(json).not.toMatch(/codes|goodbye/);
  });

  it('Responses (translated), whole and streamed: incomplete for content_filter with the output withheld', async () => {
    for (const model of ['gpt-4o-mini', 'claude-opus-4-7']) {
      const response = await openai.responses.create({ model, input: PROMPT });
      expect(response.status).toBe('incomplete');
      expect(response.incomplete_details).toEqual({ reason: 'content_filter' });
      expect(response.output).toEqual([]);
      expect(response.usage?.output_tokens).toBeGreaterThan(0);
      await expectRecordedStop(/matched in output\[0\]\.content\[0\]\.text/);

      const stream = openai.responses.stream({ model, input: PROMPT });
      let text = '';
      stream.on('response.output_text.delta', (event) => (text += event.delta));
      const final = await stream.finalResponse();
      expect(final.status).toBe('incomplete');
      expect(final.incomplete_details).toEqual({ reason: 'content_filter' });
      expect(text).toMatch(/launch$/);
      expect(text).not.toMatch(/codes|goodbye/);
      await expectRecordedStop(/matched in response\.output_text\.delta/);
    }
  });

  it('Responses kept with store: true read back as withheld as they were answered, whole and streamed', async () => {
    for (const model of ['gpt-4o-mini', 'claude-opus-4-7']) {
      const whole = await openai.responses.create({ model, input: PROMPT, store: true });
      const stream = openai.responses.stream({ model, input: PROMPT, store: true });
      const streamed = await stream.finalResponse();
      for (const id of [whole.id, streamed.id]) {
        const kept = await openai.responses.retrieve(id);
        expect(JSON.stringify(kept)).not.toMatch(/launch codes|goodbye/i);
        expect(kept.output).toEqual([]);
      }
    }
  });

  it('leaves an answer without a match as it is, and counts the stops in the metrics', async () => {
    const before = await stops();
    const completion = await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'launch the boat' }],
    });
    expect(completion.choices[0]!.message.content).toBe('You said: launch the boat');
    expect((await lastTraffic()).guardrails?.answer_stopped).toBeUndefined();
    await openai.chat.completions.create(ask('gpt-4o-mini'));
    expect((await stops()) - before).toBe(1);
  });

  const stops = async (): Promise<number> => {
    const text = await (await fetch(`${h.url}/metrics`)).text();
    return Number(/^gateway_content_policy_answer_stops_total (\S+)$/m.exec(text)?.[1]);
  };
});
