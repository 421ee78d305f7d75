import { describe, expect, it } from 'vitest';
import type { ReceivedSpan } from '../support/otlp-receiver.js';
import { newTrace, tracedGateway } from './support/traced-gateway.js';

const SERVER = 2;

/**
 * The server span says who made the request and what it cost, as a Langfuse or Tempo user joins and
 * sums traces by: the key's user (`user.id`) and team (`gatehouse.team`), the cost in US dollars by the
 * configured prices. Never the key itself.
 */
describe('trace attributes: user, team and cost on the server span', () => {
  const gateway = tracedGateway();

  /** The server span of a chat request made with `key` in a trace of its own. */
  async function serverSpan(key: string, model: string): Promise<ReceivedSpan> {
    const trace = newTrace();
    await gateway.h
      .openaiClient(key)
      .chat.completions.create(
        { model, messages: [{ role: 'user', content: 'hello' }] },
        { headers: { traceparent: trace.traceparent } },
      );
    const spans = await gateway.receiver.waitForTrace(trace.traceId, 1);
    return spans.find((span) => span.kind === SERVER)!;
  }

  it("names the key's user and team and the priced cost, as the usage row has them", async () => {
    const key = await gateway.h.issueKey({ scopes: ['chat'], user: 'lin', team: 'red' });
    // gpt-4o-mini is priced at $0.15 / $0.60 per million tokens in the harness.
    gateway.h.openai.setNext({ reply: { usage: { prompt_tokens: 1000, completion_tokens: 500 } } });
    const root = await serverSpan(key.key, 'gpt-4o-mini');
    expect(root.attributes).toMatchObject({ 'user.id': 'lin', 'gatehouse.team': 'red', 'gatehouse.key_id': key.id });
    expect(root.attributes['gatehouse.cost_usd']).toBeCloseTo(0.00045, 12);
    const [row] = await gateway.h.usageRows('limit=1');
    expect(row.cost_usd).toBeCloseTo(root.attributes['gatehouse.cost_usd'] as number, 12);
    expect(gateway.receiver.bodies.join('\n')).not.toContain(key.key);
  });

  it('leaves out what the key does not have, and the cost of a model without a price', async () => {
    const key = await gateway.h.issueKey({ scopes: ['chat'] });
    const root = await serverSpan(key.key, 'claude-opus-4-7');
    expect(root.attributes['gatehouse.key_id']).toBe(key.id);
    for (const name of ['user.id', 'gatehouse.team', 'gatehouse.cost_usd'])
      expect(root.attributes).not.toHaveProperty(name);
  });
});
