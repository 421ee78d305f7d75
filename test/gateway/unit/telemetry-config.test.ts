import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/server/config/load.js';
import { tracesUrl } from '../../../src/server/gateway/telemetry/telemetry-config.js';
import { formatTraceparent, parseTraceparent } from '../../../src/server/gateway/telemetry/traceparent.js';

const load = (env: NodeJS.ProcessEnv, overrides: Record<string, unknown> = {}) =>
  loadConfig({ env: { GATEHOUSE_DATA_DIR: '/tmp/unused', ...env }, overrides }).config.telemetry;

describe('telemetry configuration', () => {
  it('is off without an endpoint', () => {
    expect(tracesUrl(load({}))).toBeUndefined();
  });

  it('appends /v1/traces to a base endpoint, uses a traces endpoint as it is, and lets the standard variables win', () => {
    expect(tracesUrl(load({}, { telemetry: { otlp_endpoint: 'http://c:4318/' } }))).toBe('http://c:4318/v1/traces');
    expect(tracesUrl(load({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://env:4318' }))).toBe('http://env:4318/v1/traces');
    expect(
      tracesUrl(
        load(
          { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://x/custom' },
          { telemetry: { otlp_endpoint: 'http://c:4318' } },
        ),
      ),
    ).toBe('https://x/custom');
    expect(load({ OTEL_SERVICE_NAME: 'svc' }).service_name).toBe('svc');
  });

  it('is turned off by OTEL_SDK_DISABLED or OTEL_TRACES_EXPORTER=none even with an endpoint', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://env:4318' };
    expect(tracesUrl(load({ ...endpoint, OTEL_SDK_DISABLED: 'true' }))).toBeUndefined();
    expect(tracesUrl(load({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' }))).toBeUndefined();
  });

  it('refuses an endpoint that is not an http(s) URL, naming the key', () => {
    expect(() => load({}, { telemetry: { otlp_endpoint: 'ftp://x' } })).toThrow(/telemetry\.otlp_endpoint/);
    expect(() => load({}, { telemetry: { sample_ratio: 2 } })).toThrow(/telemetry\.sample_ratio/);
  });
});

describe('traceparent', () => {
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  const spanId = '00f067aa0ba902b7';

  it('reads a valid header and writes one back', () => {
    const parsed = parseTraceparent(`00-${traceId}-${spanId}-01`)!;
    expect(parsed).toMatchObject({ traceId, spanId, traceFlags: 1, isRemote: true });
    expect(formatTraceparent(parsed)).toBe(`00-${traceId}-${spanId}-01`);
    expect(formatTraceparent({ ...parsed, traceFlags: 0 })).toBe(`00-${traceId}-${spanId}-00`);
  });

  it('ignores malformed, all-zero and forbidden-version headers', () => {
    for (const header of [
      undefined,
      '',
      `00-${traceId}-${spanId}`,
      `00-${traceId.toUpperCase()}-${spanId}-01`,
      `00-${'0'.repeat(32)}-${spanId}-01`,
      `00-${traceId}-${'0'.repeat(16)}-01`,
      `ff-${traceId}-${spanId}-01`,
      `00-${traceId}-${spanId}-01-extra`,
    ])
      expect(parseTraceparent(header), String(header)).toBeUndefined();
    // A later version may carry more fields; its first four are read.
    expect(parseTraceparent(`01-${traceId}-${spanId}-01-more`)?.spanId).toBe(spanId);
  });
});
