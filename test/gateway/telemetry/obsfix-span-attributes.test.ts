import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../../support/otlp-receiver.js';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';

const SERVER = 2;
const CLIENT = 3;

/**
 * The server span carries the HTTP server conventions' connection attributes and the key's id, the
 * upstream span a whole answer's id and finish reasons, and token counts the gateway estimated say so.
 */
describe('span attributes of the connection, the answer and estimated usage', () => {
  let receiver: OtlpReceiver;
  let h: GatewayHarness;
  let key: { id: string; key: string };

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    h = await startGatewayHarness({ telemetry: { otlp_endpoint: receiver.url, export_delay_ms: 20 } });
    key = await h.issueKey({ scopes: ['chat'] });
  });
  afterAll(async () => {
    await h?.close();
    await receiver?.close();
  });

  /** Sends a chat request in a trace of its own and returns that trace's spans. */
  async function traced(body: Record<string, unknown>): Promise<ReceivedSpan[]> {
    const traceId = randomBytes(16).toString('hex');
    const response = await fetch(`${h.url}/v1/chat/completions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key.key}`,
        'content-type': 'application/json',
        'user-agent': 'obs-test/1.0',
        traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01`,
      },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello there' }], ...body }),
    });
    expect(response.status).toBe(200);
    await response.text();
    return receiver.waitForTrace(traceId, 2);
  }
  const server = (spans: readonly ReceivedSpan[]): ReceivedSpan => spans.find((span) => span.kind === SERVER)!;
  const upstream = (spans: readonly ReceivedSpan[]): ReceivedSpan => spans.find((span) => span.kind === CLIENT)!;

  it('names the scheme, the addresses, the user agent and the key on the server span', async () => {
    const root = server(await traced({}));
    const gateway = new URL(h.url);
    expect(root.attributes).toMatchObject({
      'url.scheme': 'http',
      'server.address': gateway.hostname,
      'server.port': Number(gateway.port),
      'user_agent.original': 'obs-test/1.0',
      'network.protocol.version': '1.1',
      'gatehouse.key_id': key.id,
    });
    expect(String(root.attributes['client.address'])).toMatch(/127\.0\.0\.1$/);
    // The id only: the secret is in no span.
    expect(receiver.bodies.join('\n')).not.toContain(key.key);
  });

  it("records a whole answer's id and finish reasons, and reported usage as not estimated", async () => {
    h.openai.setNext({ reply: { id: 'chatcmpl-obs-123', finishReason: 'length', text: 'cut' } });
    const call = upstream(await traced({}));
    expect(call.attributes).toMatchObject({
      'gen_ai.response.id': 'chatcmpl-obs-123',
      'gen_ai.response.finish_reasons': ['length'],
    });
    expect(call.attributes).not.toHaveProperty('gatehouse.usage.estimated');
  });

  it('marks the token counts of a stream without reported usage as estimated', async () => {
    h.openai.setNext({ reply: { usage: null, text: 'some words of an answer' } });
    const call = upstream(await traced({ stream: true }));
    expect(call.attributes['gen_ai.usage.output_tokens']).toBeGreaterThan(0);
    expect(call.attributes['gatehouse.usage.estimated']).toBe(true);
  });
});
