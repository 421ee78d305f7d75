import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';

// Personal data in a retrieved document, which no caller's request contained.
const JANE = 'jane.doe@example.com';
const CARD = '4111 1111 1111 1111';
const DOCUMENT = `Escalations go to Jane (${JANE}); the team card is ${CARD}. Escalation window is four hours.`;

/**
 * Retrieved text goes through the PII module's redaction, irreversibly: no upstream, traffic record or
 * answer ever holds a retrieved value, the placeholders never collide with the caller's own (which
 * PII restore puts back), and a retrieved placeholder the model repeats stays a placeholder.
 */
describe('RAG: retrieved text is PII-redacted, never restored', () => {
  let h: GatewayHarness;
  let secret: string;

  beforeAll(async () => {
    h = await startGatewayHarness({ pii: { mode: 'mask' } });
    secret = (await h.issueKey({ scopes: ['chat', 'responses', 'rag:support'] })).key;
    await h.admin('POST', '/internal/rag/collections', { name: 'support' });
    const added = await h.admin('POST', '/internal/rag/collections/support/documents', {
      key: 'escalation.txt',
      content: DOCUMENT,
    });
    expect(added.status).toBe(201);
  });
  afterAll(() => h.close());

  it('chat: the upstream gets placeholders, the caller’s own email comes back, the retrieved one never', async () => {
    // The model repeats both placeholders: the caller's is restored, the retrieved one has no original.
    h.openai.setNext({ reply: { text: 'Write to [EMAIL_2], and we reply to [EMAIL_1].' } });
    const { data, response } = await h
      .openaiClient(secret)
      .chat.completions.create(
        {
          model: 'gpt-4o-mini',
          messages: [{ role: 'user', content: 'I am me@client.org: what is the escalation window?' }],
        },
        { headers: { 'x-gatehouse-rag': 'support' } },
      )
      .withResponse();
    expect(response.headers.get('x-gatehouse-rag-chunks')).toMatch(/^support:\d+$/);
    const upstream = h.openai.lastRequest()!.rawBody;
    expect(upstream).not.toContain(JANE);
    expect(upstream).not.toContain(CARD);
    expect(upstream).not.toContain('me@client.org');
    // The caller's email took [EMAIL_1] in the PII stage; the retrieved one got the next free placeholder.
    expect(upstream).toContain('I am [EMAIL_1]');
    expect(upstream).toContain('Jane ([EMAIL_2])');
    expect(upstream).toContain('[CREDIT_CARD_1]');
    expect(data.choices[0]!.message.content).toBe('Write to [EMAIL_2], and we reply to me@client.org.');
    const traffic = JSON.stringify((await h.admin('GET', '/internal/traffic?limit=20')).body);
    expect(traffic).not.toContain(JANE);
    expect(traffic).not.toContain(CARD);
  });

  it('Responses and Messages: the same redaction reaches every upstream', async () => {
    await h
      .openaiClient(secret)
      .responses.create(
        { model: 'gpt-4o-mini', input: 'escalation window?' },
        { headers: { 'x-gatehouse-rag': 'support' } },
      );
    const responsesUpstream = h.openai.lastRequest()!.rawBody;
    expect(responsesUpstream).toContain('[EMAIL_1]');
    expect(responsesUpstream).not.toContain(JANE);
    await h
      .anthropicClient(secret)
      .messages.create(
        { model: 'claude-opus-4-7', max_tokens: 20, messages: [{ role: 'user', content: 'escalation window?' }] },
        { headers: { 'x-gatehouse-rag': 'support' } },
      );
    const messagesUpstream = h.anthropic.lastRequest()!.rawBody;
    expect(messagesUpstream).toContain('escalation');
    expect(messagesUpstream).not.toContain(JANE);
    expect(messagesUpstream).not.toContain(CARD);
  });

  it('the admin search shows what a key would be sent: redacted; the stored chunk keeps the original', async () => {
    const search = await h.admin('POST', '/internal/rag/search', {
      query: 'escalation window',
      collections: ['support'],
    });
    expect(search.body.hits[0].text).toContain('[EMAIL_1]');
    expect(search.body.hits[0].text).not.toContain(JANE);
    const chunks = (await h.admin('GET', '/internal/rag/collections/support/chunks')).body.data;
    expect(chunks[0].text).toContain(JANE);
  });
});

describe('RAG: redaction of retrieved text does not depend on the PII stage being on', () => {
  it('with pii.mode off (the default), retrieved values are still redacted; rag.redact_pii: false turns it off', async () => {
    for (const redact of [true, false]) {
      const h = await startGatewayHarness({ rag: { redact_pii: redact } });
      try {
        const key = (await h.issueKey({ scopes: ['chat', 'rag:support'] })).key;
        await h.admin('POST', '/internal/rag/collections', { name: 'support' });
        await h.admin('POST', '/internal/rag/collections/support/documents', { key: 'e.txt', content: DOCUMENT });
        await h
          .openaiClient(key)
          .chat.completions.create(
            { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'escalation window?' }] },
            { headers: { 'x-gatehouse-rag': 'support' } },
          );
        expect(h.openai.lastRequest()!.rawBody.includes(JANE)).toBe(!redact);
      } finally {
        await h.close();
      }
    }
  });
});
