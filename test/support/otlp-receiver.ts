import { createServer, type Server } from 'node:http';

/** One span as the receiver decoded it from OTLP/HTTP JSON: ids in hex, attributes as plain values. */
export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | undefined;
  readonly name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client. */
  readonly kind: number;
  readonly attributes: Readonly<Record<string, unknown>>;
  /** OTLP status code: 0 unset, 1 ok, 2 error. */
  readonly statusCode: number;
  readonly resource: Readonly<Record<string, unknown>>;
  readonly startNs: bigint;
  readonly endNs: bigint;
}

/** An OTLP/HTTP collector on 127.0.0.1 that keeps every span it is sent, and every raw export body. */
export interface OtlpReceiver {
  /** Base address, as OTEL_EXPORTER_OTLP_ENDPOINT takes it (`/v1/traces` is appended by the exporter). */
  readonly url: string;
  readonly spans: ReceivedSpan[];
  /** The export bodies as received (to check that nothing secret was sent at all). */
  readonly bodies: string[];
  /** The content types the exports came with. */
  readonly contentTypes: string[];
  /** Resolves with the spans of `traceId` once `count` of them, the server span among them, arrived. */
  waitForTrace(traceId: string, count: number, timeoutMs?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

/** OTLP JSON ids are hex (the spec's JSON mapping); some exporters send base64. */
function hexId(id: unknown): string | undefined {
  if (typeof id !== 'string' || id === '') return undefined;
  if (/^[0-9a-f]+$/i.test(id) && (id.length === 32 || id.length === 16)) return id.toLowerCase();
  return Buffer.from(id, 'base64').toString('hex');
}

function anyValue(value: Record<string, unknown>): unknown {
  if ('stringValue' in value) return value.stringValue;
  if ('intValue' in value) return Number(value.intValue);
  if ('doubleValue' in value) return Number(value.doubleValue);
  if ('boolValue' in value) return value.boolValue;
  if ('arrayValue' in value)
    return ((value.arrayValue as { values?: Record<string, unknown>[] }).values ?? []).map(anyValue);
  return value;
}

function attributesOf(list: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const item of (list as { key: string; value: Record<string, unknown> }[] | undefined) ?? [])
    out[item.key] = anyValue(item.value);
  return out;
}

function decode(body: any): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of body.resourceSpans ?? []) {
    const resource = attributesOf(resourceSpans.resource?.attributes);
    for (const scopeSpans of resourceSpans.scopeSpans ?? [])
      for (const span of scopeSpans.spans ?? [])
        spans.push({
          traceId: hexId(span.traceId)!,
          spanId: hexId(span.spanId)!,
          parentSpanId: hexId(span.parentSpanId),
          name: span.name,
          kind: span.kind,
          attributes: attributesOf(span.attributes),
          statusCode: span.status?.code ?? 0,
          resource,
          startNs: BigInt(span.startTimeUnixNano),
          endNs: BigInt(span.endTimeUnixNano),
        });
  }
  return spans;
}

/** Starts a receiver on a free port of 127.0.0.1. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const bodies: string[] = [];
  const contentTypes: string[] = [];
  const waiters = new Set<() => void>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/v1/traces') {
        response.writeHead(404).end();
        return;
      }
      const text = Buffer.concat(chunks).toString('utf8');
      bodies.push(text);
      contentTypes.push(String(request.headers['content-type']));
      spans.push(...decode(JSON.parse(text)));
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      for (const waiter of waiters) waiter();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    spans,
    bodies,
    contentTypes,
    waitForTrace: (traceId, count, timeoutMs = 5000) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          const found = spans.filter((span) => span.traceId === traceId);
          // The server span ends last: once it is here, the request's other spans are too.
          if (found.length < count || !found.some((span) => span.kind === 2)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          const got = spans.filter((span) => span.traceId === traceId).map((span) => span.name);
          reject(new Error(`trace ${traceId}: ${count} spans expected, got ${JSON.stringify(got)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
