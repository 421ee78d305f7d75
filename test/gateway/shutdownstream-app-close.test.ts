import { afterEach, describe, expect, it } from 'vitest';
import { closeToDeadline } from '../../src/server/shutdown.js';
import { readUntilEnd } from './shutdownstream-stream-end.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

let h: GatewayHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('a stream still running when the app closes', () => {
  it('ends with the shutdown error frame, and traffic and metrics record a 503', async () => {
    h = await startGatewayHarness();
    const harness = h;
    const key = (await harness.issueKey({ scopes: ['*'] })).key;
    harness.openai.setDefault({
      frameDelayMs: 200,
      reply: { text: Array.from({ length: 200 }, (_, i) => `w${i}`).join(' ') },
    });
    const stream = await harness
      .openaiClient(key)
      .chat.completions.create({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'go' }] });
    const { ended } = await readUntilEnd(stream);

    // As the desktop app closes the servers when it quits: to a deadline, here a short one.
    const exited = new Promise<number>((resolve) => closeToDeadline(harness.servers, 300, resolve));

    const error = (await ended) as Error | undefined;
    expect(error).toBeInstanceOf(Error);
    expect(error!.message).toContain('the gateway is shutting down');
    expect(await exited).toBe(1);
    const services = harness.servers.gateway.gateway;
    const [event] = services.traffic.list(1, true).events;
    expect(event).toMatchObject({ endpoint: 'chat', stream: true, status: 503, error_type: 'service_unavailable' });
    // What the client got ends with the error chunk and `[DONE]`, as the gateway's other mid-stream errors do.
    const sent = String(event!.response_body);
    expect(sent).toMatch(
      /data: \{"error":\{"type":"service_unavailable","message":"the gateway is shutting down[^\n]*\n\ndata: \[DONE\]\n\n$/,
    );
    const requests = await services.metrics.requests.get();
    expect(requests.values).toContainEqual(
      expect.objectContaining({ labels: { model: 'gpt-4o-mini', status: '503' }, value: 1 }),
    );
    expect(requests.values.filter((series) => String(series.labels.status) === '499' && series.value > 0)).toEqual([]);
  });
});
