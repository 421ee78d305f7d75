import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The plumbing shared by the mock upstreams: an HTTP server on 127.0.0.1 (port 0) that records
 * every request and answers each one from a queue of scripts (or the default behaviour).
 */

/** Parsed JSON as tests read it: any field without casts (the one deliberate `any` of the mocks). */

export type Json = any;

/** One request the mock received. `outcome` says whether the answer was completed or the client went away. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  /** Lower-case header names. */
  readonly headers: Readonly<Record<string, string>>;
  /** Parsed JSON body (undefined when the body was not JSON). */
  readonly body: Json;
  readonly rawBody: string;
  outcome: 'pending' | 'completed' | 'aborted';
}

/** Script fields every mock understands. */
export interface BaseScript {
  /** Answer with this status; non-2xx statuses get an error body in the provider's exact shape. */
  readonly status?: number;
  /** Send this JSON as the body verbatim (with `status`, default 200). */
  readonly body?: unknown;
  /** Extra response headers (for example `retry-after`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Wait before answering. */
  readonly delayMs?: number;
  /** Never answer (the connection stays open until the client or close() ends it). */
  readonly hang?: boolean;
  /** Streams: destroy the socket after this many frames. */
  readonly dropAfterFrames?: number;
  /** Streams: wait between frames. */
  readonly frameDelayMs?: number;
}

/** A running mock upstream. */
export interface MockUpstream<S extends BaseScript> {
  /** Base URL to configure as the deployment's baseUrl (OpenAI: `<origin>/v1`; Anthropic: `<origin>`). */
  readonly url: string;
  readonly origin: string;
  /** Every request received, oldest first. */
  readonly requests: RecordedRequest[];
  lastRequest(): RecordedRequest | undefined;
  /** Queues scripts for the next requests, one each, in order. */
  setNext(...scripts: S[]): void;
  /** Script used when the queue is empty (default: `{}`, a normal answer). */
  setDefault(script: S): void;
  /** Forgets recorded requests and queued scripts. */
  reset(): void;
  /** Resolves once `count` requests were received. */
  waitForRequests(count: number, timeoutMs?: number): Promise<void>;
  /** Resolves with the outcome of request `index` once it is no longer pending. */
  waitForOutcome(index: number, timeoutMs?: number): Promise<RecordedRequest['outcome']>;
  close(): Promise<void>;
}

/** What a provider mock does with one request. */
export type MockHandler<S extends BaseScript> = (
  request: RecordedRequest,
  response: ServerResponse,
  script: S,
) => Promise<void>;

/** Starts a mock on 127.0.0.1:0; `urlPath` is appended to the origin to form `url`. */
export async function startMockServer<S extends BaseScript>(
  urlPath: string,
  handler: MockHandler<S>,
): Promise<MockUpstream<S>> {
  const requests: RecordedRequest[] = [];
  let queue: S[] = [];
  let fallback = {} as S;

  const server = createServer((incoming, response) => {
    void receive(incoming)
      .then(async (rawBody) => {
        const recorded: RecordedRequest = {
          method: incoming.method ?? 'GET',
          path: incoming.url ?? '/',
          headers: flatHeaders(incoming),
          body: parseJson(rawBody),
          rawBody,
          outcome: 'pending',
        };
        requests.push(recorded);
        response.on('close', () => {
          recorded.outcome = response.writableFinished ? 'completed' : 'aborted';
        });
        const script = queue.shift() ?? fallback;
        if (script.hang) return;
        if (script.delayMs) await sleep(script.delayMs);
        if (response.destroyed) return;
        for (const [name, value] of Object.entries(script.headers ?? {})) response.setHeader(name, value);
        await handler(recorded, response, script);
      })
      .catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: `mock upstream failed: ${String(error)}` } }));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const poll = async (done: () => boolean, timeoutMs: number, what: string): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      if (Date.now() > deadline) throw new Error(`mock upstream: timed out waiting for ${what}`);
      await sleep(5);
    }
  };

  return {
    url: `${origin}${urlPath}`,
    origin,
    requests,
    lastRequest: () => requests.at(-1),
    setNext: (...scripts) => {
      queue.push(...scripts);
    },
    setDefault: (script) => {
      fallback = script;
    },
    reset: () => {
      requests.length = 0;
      queue = [];
    },
    waitForRequests: (count, timeoutMs = 2000) => poll(() => requests.length >= count, timeoutMs, `${count} requests`),
    waitForOutcome: async (index, timeoutMs = 2000) => {
      await poll(
        () => requests[index] !== undefined && requests[index].outcome !== 'pending',
        timeoutMs,
        `the outcome of request ${index}`,
      );
      return requests[index].outcome;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Writes SSE frames, honouring `frameDelayMs` and `dropAfterFrames`; ends the response unless dropped. */
export async function writeFrames(
  response: ServerResponse,
  frames: readonly string[],
  script: BaseScript,
): Promise<void> {
  response.writeHead(script.status ?? 200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  response.flushHeaders();
  for (const [index, frame] of frames.entries()) {
    if (script.dropAfterFrames !== undefined && index >= script.dropAfterFrames) {
      response.socket?.destroy();
      return;
    }
    if (script.frameDelayMs && index > 0) await sleep(script.frameDelayMs);
    if (response.destroyed) return;
    // Waiting for each write to reach the socket makes a scripted drop land after these frames.
    await new Promise<void>((resolve) => response.write(frame, () => resolve()));
  }
  response.end();
}

/** Sends a JSON answer. */
export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

/** Splits a text into streaming pieces (a word with its leading space each), as models stream. */
export function pieces(text: string): string[] {
  return text.match(/\s*\S+\s*$|\s*\S+/g) ?? (text === '' ? [] : [text]);
}

/** Splits JSON argument text into a few fragments, as tool-call arguments stream. */
export function fragments(text: string, size = 8): string[] {
  const out: string[] = [];
  for (let index = 0; index < text.length; index += size) out.push(text.slice(index, index + size));
  return out;
}

/** Words of a text, for deterministic token counts. */
export function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

function receive(incoming: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    incoming.on('error', reject);
  });
}

function flatHeaders(incoming: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
