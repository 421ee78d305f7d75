import type Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OPENAI_UPSTREAM_KEY, startGatewayHarness, type GatewayHarness } from '../support/harness.js';

// One value of every entity type; the upstream must never see any of them.
const EMAIL = 'jane.doe@example.com';
const PHONE = '+1 415 555 0132';
const CARD = '4111 1111 1111 1111';
const IBAN = 'DE89 3704 0044 0532 0130 00';
const SSN = '123-45-6789';
const IP = '192.168.10.20';
const SECRET = 'sk-proj-abcdefghijklmnopqrstuvwx';
const ORIGINALS = [EMAIL, PHONE, CARD, IBAN, SSN, IP, SECRET];

const USER_TEXT = `Mail ${EMAIL} or call ${PHONE}; card ${CARD}, IBAN ${IBAN}, SSN ${SSN}, host ${IP}, key ${SECRET}. Again: ${EMAIL}`;
// What the client gets back from an upstream that echoes the text: originals, but never the secret.
const RESTORED = `You said: ${USER_TEXT.replace(SECRET, '[SECRET_1]')}`;

function expectNoOriginals(raw: string | undefined): void {
  expect(raw).toBeDefined();
  for (const value of ORIGINALS) expect(raw).not.toContain(value);
}

/** PII mask mode on every endpoint, through the official SDKs, against recording upstreams. */
describe('PII scrubbing and restoration', () => {
  let h: GatewayHarness;
  let openai: OpenAI;
  let anthropic: Anthropic;
  let redactKey: string;

  beforeAll(async () => {
    h = await startGatewayHarness({ pii: { mode: 'mask' } });
    const key = await h.issueKey({ scopes: ['chat', 'embeddings', 'responses'] });
    openai = h.openaiClient(key.key);
    anthropic = h.anthropicClient(key.key);
    const redact = await h.issueKey({ scopes: ['chat'] });
    redactKey = redact.key;
    // A deployment with its own Responses API, and per-key and per-model overrides.
    const listed = (await h.admin('GET', '/internal/deployments')).body.data;
    const deployments = listed.map(({ id, model, provider, upstream_model, base_url, weight }: any) => ({
      id,
      model,
      provider,
      upstream_model,
      base_url,
      weight,
    }));
    deployments.push({
      id: 'native-responses',
      model: 'resp-native',
      provider: 'openai',
      upstream_model: 'gpt-4.1',
      base_url: h.openai.url,
      api_key: OPENAI_UPSTREAM_KEY,
      responses_api: 'native',
    });
    expect((await h.admin('PUT', '/internal/deployments', { deployments })).status).toBe(200);
    const models = (await h.admin('GET', '/internal/models')).body.allowed_models;
    await h.admin('PUT', '/internal/models', { allowed_models: [...models, 'resp-native'] });
    const put = await h.admin('PUT', '/internal/pii', {
      keys: { [redact.id]: { mode: 'redact' } },
      models: { 'ha-model': { mode: 'block', entities: ['credit_card'] } },
    });
    expect(put.status).toBe(200);
  });
  beforeEach(() => {
    h.openai.reset();
    h.anthropic.reset();
  });
  afterAll(() => h.close());

  it('chat: every text of the request is scrubbed (system, user, tool calls, tool results); the answer has the originals back', async () => {
    const completion = await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: `Operator: ${IBAN}` },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'c1', type: 'function', function: { name: 'lookup', arguments: JSON.stringify({ email: EMAIL }) } },
          ],
        },
        { role: 'tool', tool_call_id: 'c1', content: `found at ${IP}` },
        { role: 'user', content: [{ type: 'text', text: USER_TEXT }] },
      ],
      tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }],
    });
    const sent = h.openai.lastRequest()!;
    expectNoOriginals(sent.rawBody);
    // The same value has the same placeholder everywhere in the request.
    expect(sent.body.messages[1].tool_calls[0].function.arguments).toBe('{"email":"[EMAIL_1]"}');
    expect(sent.body.messages[3].content[0].text).toContain('Mail [EMAIL_1] or call [PHONE_1]');
    expect(sent.body.messages[3].content[0].text).toContain('Again: [EMAIL_1]');
    expect(sent.body.messages[0].content).toBe('Operator: [IBAN_1]');
    expect(completion.choices[0]!.message.content).toBe(RESTORED);
  });

  it('chat stream: text and tool-call arguments split across chunks are restored', async () => {
    h.openai.setNext({
      reply: {
        text: 'Writing to [EMAIL_1] now',
        toolCalls: [{ name: 'send', arguments: '{"to":"[EMAIL_1]","phone":"[PHONE_1]","key":"[SECRET_1]"}' }],
      },
    });
    const stream = await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      stream: true,
      messages: [{ role: 'user', content: USER_TEXT }],
    });
    let text = '';
    let args = '';
    let chunks = 0;
    for await (const chunk of stream) {
      chunks += 1;
      text += chunk.choices[0]?.delta.content ?? '';
      args += chunk.choices[0]?.delta.tool_calls?.[0]?.function?.arguments ?? '';
    }
    expectNoOriginals(h.openai.lastRequest()!.rawBody);
    expect(chunks).toBeGreaterThan(8);
    expect(text).toBe(`Writing to ${EMAIL} now`);
    expect(JSON.parse(args)).toEqual({ to: EMAIL, phone: PHONE, key: '[SECRET_1]' });
  });

  it('chat to a Claude model (translated): scrubbed upstream, restored in the stream', async () => {
    const stream = openai.chat.completions.stream({
      model: 'claude-opus-4-7',
      messages: [{ role: 'user', content: USER_TEXT }],
    });
    const final = await stream.finalChatCompletion();
    expectNoOriginals(h.anthropic.lastRequest()!.rawBody);
    expect(final.choices[0]!.message.content).toBe(RESTORED);
  });

  it('Messages: system, text, tool_use input and tool results are scrubbed; JSON and stream answers restored', async () => {
    const message = await anthropic.messages.create({
      model: 'claude-opus-4-7',
      max_tokens: 100,
      system: `Support line ${PHONE}`,
      tools: [{ name: 'lookup', input_schema: { type: 'object' } }],
      messages: [
        { role: 'user', content: 'who?' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'lookup', input: { card: CARD } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: `owner ${SSN}` }] },
        { role: 'user', content: USER_TEXT },
      ],
    });
    const sent = h.anthropic.lastRequest()!;
    expectNoOriginals(sent.rawBody);
    expect(sent.body.messages[1].content[0].input).toEqual({ card: '[CREDIT_CARD_1]' });
    expect(message.content[0]).toMatchObject({ type: 'text', text: RESTORED });

    h.anthropic.setNext({ reply: { toolUses: [{ name: 'send', input: { to: '[EMAIL_1]', iban: '[IBAN_1]' } }] } });
    const streamed = await anthropic.messages
      .stream({ model: 'claude-opus-4-7', max_tokens: 100, messages: [{ role: 'user', content: USER_TEXT }] })
      .finalMessage();
    expectNoOriginals(h.anthropic.lastRequest()!.rawBody);
    expect(streamed.content[0]).toMatchObject({ type: 'tool_use', input: { to: EMAIL, iban: IBAN } });
  });

  it('Messages count_tokens: the prompt counted upstream is the scrubbed one', async () => {
    const counted = await anthropic.messages.countTokens({
      model: 'claude-opus-4-7',
      system: `Support line ${PHONE}`,
      messages: [{ role: 'user', content: USER_TEXT }],
    });
    expect(counted.input_tokens).toBeGreaterThan(0);
    const sent = h.anthropic.lastRequest()!;
    expect(sent.path).toBe('/v1/messages/count_tokens');
    expectNoOriginals(sent.rawBody);
  });

  it('Responses over a chat upstream: instructions, input items and function calls scrubbed; stream restored', async () => {
    const response = await openai.responses.create({
      model: 'gpt-4o-mini',
      instructions: `Escalate to ${EMAIL}`,
      input: [
        { type: 'function_call', call_id: 'c1', name: 'lookup', arguments: JSON.stringify({ ip: IP }) },
        { type: 'function_call_output', call_id: 'c1', output: `owner ${SSN}` },
        { role: 'user', content: [{ type: 'input_text', text: USER_TEXT }] },
      ],
    });
    expectNoOriginals(h.openai.lastRequest()!.rawBody);
    expect(response.output_text).toBe(RESTORED);

    const stream = openai.responses.stream({ model: 'gpt-4o-mini', input: USER_TEXT });
    let deltas = '';
    stream.on('response.output_text.delta', (event) => {
      deltas += event.delta;
    });
    const final = await stream.finalResponse();
    expectNoOriginals(h.openai.lastRequest()!.rawBody);
    expect(deltas).toBe(RESTORED);
    expect(final.output_text).toBe(RESTORED);
  });

  it('Responses native: the body as sent, scrubbed; typed events restored; a kept response holds what the client saw', async () => {
    const response = await openai.responses.create({ model: 'resp-native', input: USER_TEXT, store: true });
    const sent = h.openai.lastRequest()!;
    expect(sent.path).toBe('/v1/responses');
    expectNoOriginals(sent.rawBody);
    expect(response.output_text).toBe(RESTORED);
    expect((await openai.responses.retrieve(response.id)).output_text).toBe(RESTORED);

    const stream = openai.responses.stream({ model: 'resp-native', input: USER_TEXT });
    expect((await stream.finalResponse()).output_text).toBe(RESTORED);
    expectNoOriginals(h.openai.lastRequest()!.rawBody);
  });

  it('embeddings: every input is scrubbed', async () => {
    await openai.embeddings.create({ model: 'text-embedding-3-small', input: [USER_TEXT, `contact ${EMAIL}`] });
    const sent = h.openai.lastRequest()!;
    expectNoOriginals(sent.rawBody);
    expect(sent.body.input[1]).toBe('contact [EMAIL_1]');
  });

  it('a key in redact mode gets placeholders back, never the originals', async () => {
    const completion = await h.openaiClient(redactKey).chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: USER_TEXT }],
    });
    expectNoOriginals(h.openai.lastRequest()!.rawBody);
    expect(completion.choices[0]!.message.content).toContain('Mail [EMAIL_1] or call [PHONE_1]');
  });

  it('a model in block mode refuses the entity types it lists with 400, calling no upstream', async () => {
    const error = await openai.chat.completions
      .create({ model: 'ha-model', messages: [{ role: 'user', content: `card ${CARD}` }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).type).toBe('content_policy_violation');
    expect((error as Error).message).toContain('1 credit_card');
    expect((error as Error).message).not.toContain(CARD);
    expect(h.openai.requests).toHaveLength(0);
    expect(h.openaiSecondary.requests).toHaveLength(0);
    // Only the listed type blocks there: an e-mail passes, unscrubbed (the model's rule names cards only).
    await openai.chat.completions.create({ model: 'ha-model', messages: [{ role: 'user', content: EMAIL }] });
    expect(h.openai.lastRequest()!.rawBody).toContain(EMAIL);
  });

  it('placeholders the request already holds (an earlier redacted turn) are never handed out again', async () => {
    await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'assistant', content: 'I will write to [EMAIL_1].' },
        { role: 'user', content: `No, use ${EMAIL}` },
      ],
    });
    const sent = h.openai.lastRequest()!.body;
    expect(sent.messages[0].content).toBe('I will write to [EMAIL_1].');
    expect(sent.messages[1].content).toBe('No, use [EMAIL_2]');
  });

  it('counts entities by type, and the traffic view holds no original in bodies or stage notes', async () => {
    await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: USER_TEXT }] });
    await openai.chat.completions
      .create({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: USER_TEXT }] })
      .then(async (stream) => {
        for await (const _ of stream);
      });
    const metrics = await (await fetch(`${h.url}/metrics`)).text();
    for (const type of ['email', 'phone', 'credit_card', 'iban', 'national_id', 'ip_address', 'secret'])
      expect(metrics).toMatch(new RegExp(`gateway_pii_entities_total\\{entity_type="${type}"\\} [1-9]`));
    const traffic = (await h.admin('GET', '/internal/traffic?limit=100')).body.data as any[];
    // Every request but the one whose model's rule leaves e-mail addresses alone (the block test).
    const covered = traffic.filter((event) => event.model !== 'ha-model');
    expect(covered.length).toBeGreaterThan(10);
    for (const event of covered) expectNoOriginals(JSON.stringify(event));
    const last = traffic.find((event) => event.endpoint === 'chat' && event.stream);
    expect(last.guardrails).toEqual({
      pii_mode: 'mask',
      pii_entities: { email: 2, phone: 1, credit_card: 1, iban: 1, national_id: 1, ip_address: 1, secret: 1 },
    });
    expect(JSON.stringify(last.request_body)).toContain('[EMAIL_1]');
    expect(String(last.response_body)).toContain('[EMAIL_1]');
    const blocked = traffic.find((event) => event.guardrails?.blocked);
    expect(blocked.guardrails.blocked).toEqual({
      stage: 'pii',
      reason: 'the request contains 1 credit_card (pii.mode is block)',
    });
  });
});
