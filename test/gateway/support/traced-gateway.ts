import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { startOtlpReceiver, type OtlpReceiver } from '../../support/otlp-receiver.js';
import { startGatewayHarness, type GatewayHarness } from './harness.js';

/** A gateway exporting its spans to an OTLP receiver of the suite's own, both filled in before its tests. */
export interface TracedGateway {
  readonly receiver: OtlpReceiver;
  readonly h: GatewayHarness;
}

/**
 * Starts a gateway harness and the OTLP receiver it exports to before the suite's tests (hooks the
 * suite registers afterwards run after it), and closes both after them.
 */
export function tracedGateway(): TracedGateway {
  const started = {} as { receiver: OtlpReceiver; h: GatewayHarness };
  beforeAll(async () => {
    started.receiver = await startOtlpReceiver();
    started.h = await startGatewayHarness({ telemetry: { otlp_endpoint: started.receiver.url, export_delay_ms: 20 } });
  });
  afterAll(async () => {
    await started.h?.close();
    await started.receiver?.close();
  });
  return started;
}

/** A new trace of the caller's, as an instrumented client sends it. */
export function newTrace(): { traceId: string; traceparent: string } {
  const traceId = randomBytes(16).toString('hex');
  return { traceId, traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` };
}
