import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { telemetryConfigSchema } from '../../../src/server/gateway/telemetry/telemetry-config.js';
import { RequestTracing } from '../../../src/server/gateway/telemetry/tracing.js';

// A collector that is down or never answers must not hold the gateway's shutdown: the exporter would
// wait out its own timeout for every batch still queued.

let collector: Server | undefined;
afterEach(async () => {
  collector?.closeAllConnections();
  await new Promise<void>((resolve) => (collector ? collector.close(() => resolve()) : resolve()));
  collector = undefined;
});

/** A collector that takes the request and never answers. */
async function silentCollector(): Promise<string> {
  collector = createServer(() => undefined);
  await new Promise<void>((resolve) => collector!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(collector.address() as AddressInfo).port}/v1/traces`;
}

describe('tracing at shutdown', () => {
  it('waits at most its grace for a collector that does not answer, and says the last spans were dropped', async () => {
    const warnings: string[] = [];
    const config = telemetryConfigSchema.parse({ export_delay_ms: 60_000 });
    const tracing = new RequestTracing(config, await silentCollector(), '1.0.0', (message) => warnings.push(message));
    const trace = tracing.begin({
      requestId: 'r1',
      endpoint: 'chat',
      method: 'POST',
      path: '/v1/chat/completions',
      traceparent: undefined,
      tracestate: undefined,
    });
    trace.finish({ status: 200, errorType: undefined, usage: undefined, model: 'm', cached: undefined });
    const started = performance.now();
    await tracing.shutdown(300);
    expect(performance.now() - started).toBeLessThan(1500);
    expect(warnings).toEqual([
      'the OTLP endpoint did not take the last spans within 300 ms of shutdown; they were dropped',
    ]);
  });
});
