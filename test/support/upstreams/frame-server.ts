import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A server that answers every request with given SSE frames (or JSON), so a real SDK can parse
 * what the gateway produced: point `new OpenAI({ baseURL: server.url })` or
 * `new Anthropic({ baseURL: server.url })` at it and call the SDK as usual.
 */
export interface FrameServer {
  /** Base URL for both SDKs (`/v1` is accepted and ignored in paths). */
  readonly url: string;
  /** Answers the next requests with these SSE frames. */
  serveFrames(frames: Iterable<string> | AsyncIterable<string>): void;
  /** Answers the next requests with this JSON. */
  serveJson(body: unknown, status?: number): void;
  close(): Promise<void>;
}

/** Starts a frame server on 127.0.0.1:0. */
export async function startFrameServer(): Promise<FrameServer> {
  let answer: (response: ServerResponse) => Promise<void> = async (response) => {
    response.writeHead(500).end();
  };
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => void answer(response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    serveFrames(frames) {
      const all = (async () => {
        const out: string[] = [];
        for await (const frame of frames) out.push(frame);
        return out;
      })();
      answer = async (response) => {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        for (const frame of await all) response.write(frame);
        response.end();
      };
    },
    serveJson(body, status = 200) {
      answer = async (response) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      };
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
