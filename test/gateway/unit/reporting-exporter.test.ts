import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { ReportingExporter } from '../../../src/server/gateway/telemetry/reporting-exporter.js';

/** An exporter whose collector is down. */
const failing: SpanExporter = {
  export: (_spans, done) => done({ code: 1, error: new Error('connect ECONNREFUSED 127.0.0.1:4318') }),
  shutdown: async () => {},
};

describe('reporting exporter', () => {
  it('reports failed exports once a minute at most, with how many spans were dropped', () => {
    const reports: string[] = [];
    const results: number[] = [];
    const exporter = new ReportingExporter(failing, (message) => reports.push(message));
    const spans = [{}, {}] as unknown as ReadableSpan[];
    for (let i = 0; i < 3; i += 1) exporter.export(spans, (result) => results.push(result.code));
    expect(results).toEqual([1, 1, 1]);
    expect(reports).toEqual([
      'could not export 2 spans to the OTLP endpoint (connect ECONNREFUSED 127.0.0.1:4318); they were dropped, and so were any that found the export queue full meanwhile',
    ]);
  });

  it('says nothing while exports succeed', () => {
    const reports: string[] = [];
    const exporter = new ReportingExporter(
      { export: (_spans, done) => done({ code: 0 }), shutdown: async () => {} },
      (message) => reports.push(message),
    );
    exporter.export([] as ReadableSpan[], () => {});
    expect(reports).toEqual([]);
  });
});
