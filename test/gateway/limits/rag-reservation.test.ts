import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';

// Retrieved context is part of a request's prompt: the limits stage reserved the prompt as the client
// sent it, before the RAG stage put the context in, so the reservation takes the context too.
// Otherwise requests admitted while one with a large context is under way all pass on a prompt that
// is a fraction of what they send, and a budget is overspent by the context of each of them.

const PARAGRAPH =
  'Travel expenses are reimbursed within thirty days when the receipts are filed in the expense tool, ' +
  'with the project code, the cost centre, the date of travel and the approving manager named. ';

let h: GatewayHarness;

beforeAll(async () => {
  h = await startGatewayHarness();
  await h.admin('POST', '/internal/rag/collections', { name: 'expenses' });
  const added = await h.admin('POST', '/internal/rag/collections/expenses/documents', {
    key: 'travel.md',
    content: `# Travel\n\n${PARAGRAPH.repeat(12)}`,
  });
  expect(added.status).toBeLessThan(300);
});
afterAll(() => h.close());

const ask = (client: OpenAI) =>
  client.chat.completions.create(
    { model: 'gpt-4o-mini', max_tokens: 50, messages: [{ role: 'user', content: 'How are travel expenses paid?' }] },
    { headers: { 'x-gatehouse-rag': 'expenses' } },
  );

describe('a reservation with retrieved context', () => {
  it('takes the context from the limits before the request settles', async () => {
    const key = await h.issueKey({ scopes: ['chat', 'rag:*'], tpm_limit: 600 });
    const client = h.openaiClient(key.key);
    // The first request is under way (its upstream answers late) with its context in its prompt.
    h.openai.setNext({ delayMs: 1500 });
    const first = ask(client);
    await h.openai.waitForRequests(1);
    const sent = JSON.stringify(h.openai.lastRequest()!.body);
    expect(sent).toContain('Travel expenses are reimbursed');

    // The first one's prompt and output take some 60 tokens, its context some 540 more: a bucket of
    // 600 cannot hold a second request while the first is under way.
    const record = await h.admin('GET', `/internal/api-keys/${key.id}`);
    expect(record.body.limits[0].used).toBeGreaterThan(500);
    const second = await ask(client).catch((error: unknown) => error);
    expect(second).toBeInstanceOf(OpenAI.RateLimitError);
    expect((second as InstanceType<typeof OpenAI.RateLimitError>).error).toMatchObject({ limit_type: 'tokens' });
    await first;
    expect(h.openai.requests).toHaveLength(1);
  });
});
