import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';

/**
 * `gateway_otlp_spans_dropped_total` counts the spans that never reached the collector: those of
 * exports it refused, and those that found the export queue full.
 */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((entry) => entry.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const QUEUE_FULL = 'gateway_otlp_spans_dropped_total{reason="queue_full"}';
const EXPORT_FAILED = 'gateway_otlp_spans_dropped_total{reason="export_failed"}';

describe('spans dropped on the way to the collector', () => {
  let collector: Server;
  let collectorUrl: string;
  let h: GatewayHarness;
  let key: string;

  beforeAll(async () => {
    // A collector that refuses every export (a 400 is not retried by the exporter).
    collector = createServer((request, response) => {
      request.resume();
      request.on('end', () => response.writeHead(400, { 'content-type': 'application/json' }).end('{}'));
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    collectorUrl = `http://127.0.0.1:${(collector.address() as { port: number }).port}`;
    // A queue of two spans: a request's spans, which end together, overflow it. The SDK reads this
    // variable as the processor starts (this test file has its own process).
    process.env.OTEL_BSP_MAX_QUEUE_SIZE = '2';
    h = await startGatewayHarness({ telemetry: { otlp_endpoint: collectorUrl, export_delay_ms: 20 } });
    key = (await h.issueKey({ scopes: ['chat'] })).key;
  });
  afterAll(async () => {
    delete process.env.OTEL_BSP_MAX_QUEUE_SIZE;
    await h?.close();
    await new Promise<void>((resolve) => collector?.close(() => resolve()));
  });

  const scrape = async (): Promise<string> => (await fetch(`${h.url}/metrics`)).text();

  it('is there at 0 from the first scrape', async () => {
    const text = await scrape();
    expect(sample(text, QUEUE_FULL)).toBe(0);
    expect(sample(text, EXPORT_FAILED)).toBe(0);
  });

  it('counts refused exports and a full queue', async () => {
    const completion = await h
      .openaiClient(key)
      .chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    expect(completion.choices[0]?.message.content).toBeTruthy();
    // The refused export is answered in the background: wait for it to be counted.
    let text = await scrape();
    for (let tries = 0; tries < 100 && !(Number(sample(text, EXPORT_FAILED)) > 0); tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      text = await scrape();
    }
    expect(sample(text, EXPORT_FAILED)).toBeGreaterThan(0);
    expect(sample(text, QUEUE_FULL)).toBeGreaterThan(0);
  });
});
