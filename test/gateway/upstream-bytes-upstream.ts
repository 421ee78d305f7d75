import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the upstream answers one request with: `head`, then `bytes` of filler, then `tail`. */
export interface LargeAnswer {
  readonly contentType: string;
  readonly head: string;
  /** Filler bytes, sent in chunks of 1 MiB as the gateway reads them (the test holds one chunk, not all). */
  readonly bytes: number;
  readonly tail: string;
  /** Keeps the answer open after its filler, until `release()`: its bytes stay in the gateway meanwhile. */
  readonly hold?: boolean;
}

/** A local upstream of large answers that notes what it sent and whether the gateway stopped reading. */
export interface LargeAnswerUpstream {
  /** Base URL (`http://127.0.0.1:PORT/v1`). */
  readonly url: string;
  /** Requests since the last reset. */
  readonly requests: number;
  /** Filler bytes written since the last reset. */
  readonly sentBytes: number;
  /** Whether the gateway closed the last answer's connection before it was all sent, once it closed. */
  readonly cutShort: Promise<boolean>;
  /** Ends the answers held open. */
  release(): void;
  reset(): void;
  close(): Promise<void>;
}

const CHUNK = Buffer.alloc(1024 * 1024, 'a');

/** Starts the upstream; `answer` says what each request gets. */
export async function startLargeAnswerUpstream(
  answer: (request: IncomingMessage) => LargeAnswer,
): Promise<LargeAnswerUpstream> {
  let requests = 0;
  let sentBytes = 0;
  let cutShort: Promise<boolean> = Promise.resolve(false);
  const held: Array<{ response: ServerResponse; tail: string }> = [];
  const server = createServer((request, response) => {
    requests += 1;
    request.resume();
    const { contentType, head, bytes, tail, hold } = answer(request);
    response.writeHead(200, { 'content-type': contentType });
    response.write(head);
    if (!hold) cutShort = new Promise((resolve) => response.once('close', () => resolve(!response.writableFinished)));
    let sent = 0;
    const more = (): void => {
      while (!response.destroyed && sent < bytes) {
        sent += CHUNK.length;
        sentBytes += CHUNK.length;
        if (!response.write(CHUNK)) return void response.once('drain', more);
      }
      if (response.destroyed) return;
      if (hold) held.push({ response, tail });
      else response.end(tail);
    };
    more();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    get requests() {
      return requests;
    },
    get sentBytes() {
      return sentBytes;
    },
    get cutShort() {
      return cutShort;
    },
    release: () => {
      for (const { response, tail } of held.splice(0)) response.end(tail);
    },
    reset: () => {
      requests = 0;
      sentBytes = 0;
      cutShort = Promise.resolve(false);
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
