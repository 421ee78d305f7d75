import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

const SERVER = 2;

/**
 * The server span says who made the request and what it cost, as a Langfuse or Tempo user joins and
 * sums traces by: the key's user (`user.id`) and team (`gatehouse.team`), the cost in US dollars by the
 * configured prices. Never the key itself.
 */
describe('trace attributes: user, team and cost on the server span', () => {
  let receiver: OtlpReceiver;
  let h: GatewayHarness;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    h = await startGatewayHarness({ telemetry: { otlp_endpoint: receiver.url, export_delay_ms: 20 } });
  });
  afterAll(async () => {
    await h?.close();
    await receiver?.close();
  });

  /** The server span of a chat request made with `key` in a trace of its own. */
  async function serverSpan(key: string, model: string): Promise<ReceivedSpan> {
    const traceId = randomBytes(16).toString('hex');
    await h
      .openaiClient(key)
      .chat.completions.create(
        { model, messages: [{ role: 'user', content: 'hello' }] },
        { headers: { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` } },
      );
    const spans = await receiver.waitForTrace(traceId, 1);
    return spans.find((span) => span.kind === SERVER)!;
  }

  it("names the key's user and team and the priced cost, as the usage row has them", async () => {
    const key = await h.issueKey({ scopes: ['chat'], user: 'lin', team: 'red' });
    // gpt-4o-mini is priced at $0.15 / $0.60 per million tokens in the harness.
    h.openai.setNext({ reply: { usage: { prompt_tokens: 1000, completion_tokens: 500 } } });
    const root = await serverSpan(key.key, 'gpt-4o-mini');
    expect(root.attributes).toMatchObject({ 'user.id': 'lin', 'gatehouse.team': 'red', 'gatehouse.key_id': key.id });
    expect(root.attributes['gatehouse.cost_usd']).toBeCloseTo(0.00045, 12);
    const [row] = await h.usageRows('limit=1');
    expect(row.cost_usd).toBeCloseTo(root.attributes['gatehouse.cost_usd'] as number, 12);
    expect(receiver.bodies.join('\n')).not.toContain(key.key);
  });

  it('leaves out what the key does not have, and the cost of a model without a price', async () => {
    const key = await h.issueKey({ scopes: ['chat'] });
    const root = await serverSpan(key.key, 'claude-opus-4-7');
    expect(root.attributes['gatehouse.key_id']).toBe(key.id);
    for (const name of ['user.id', 'gatehouse.team', 'gatehouse.cost_usd'])
      expect(root.attributes).not.toHaveProperty(name);
  });
});
