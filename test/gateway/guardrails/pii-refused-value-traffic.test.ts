import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';

const EMAIL = 'jane.doe@example.com';

/**
 * A request the schema refuses never reaches the PII stage, and its message quotes the value it
 * refused, as errors must; a later stage may quote a field the PII stage does not read. The client gets its own text back; the traffic view, which others read,
 * keeps the message with the values the PII rule finds redacted.
 */
describe('PII in the message of a refused request', () => {
  let h: GatewayHarness;
  let key: string;
  beforeAll(async () => {
    h = await startGatewayHarness({ pii: { mode: 'mask' } });
    key = (await h.issueKey({ scopes: ['chat'] })).key;
  });
  afterAll(async () => h.close());

  it('reaches the client as sent and the traffic view redacted', async () => {
    const answer = await fetch(`${h.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'gpt-4o-mini',
        tool_choice: `call ${EMAIL}`,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    });
    expect(answer.status).toBe(400);
    const requestId = answer.headers.get('x-request-id')!;
    expect(((await answer.json()) as { error: { message: string } }).error.message).toContain(EMAIL);

    const traffic = (await h.admin('GET', '/internal/traffic?limit=50')).body.data as Array<{
      request_id: string;
      response_body: { error: { message: string } };
    }>;
    const record = traffic.find((event) => event.request_id === requestId)!;
    expect(record.response_body.error.message).toContain('tool_choice');
    expect(JSON.stringify(record)).not.toContain(EMAIL);
  });

  it('redacts a value quoted by a stage after the PII stage, from a field that stage does not read', async () => {
    const client = h.openaiClient(key);
    const failure = (await client.chat.completions
      .create({
        model: 'gpt-4o-mini',
        metadata: { gatehouse_rag: EMAIL },
        messages: [{ role: 'user', content: `Write to ${EMAIL}` }],
      })
      .catch((e: unknown) => e)) as { status?: number; message?: string };
    expect(failure.status).toBe(400);
    expect(failure.message).toContain(`metadata.gatehouse_rag must list RAG collection names`);
    expect(failure.message).toContain(EMAIL);

    const traffic = (await h.admin('GET', '/internal/traffic?limit=1')).body.data as Array<{
      guardrails: { pii_mode?: string };
      response_body: { error: { message: string } };
    }>;
    expect(traffic[0]!.guardrails.pii_mode).toBe('mask');
    expect(traffic[0]!.response_body.error.message).toContain('got "[EMAIL_1]"');
    expect(JSON.stringify(traffic[0])).not.toContain(EMAIL);
  });
});
