import { request as httpRequest, type IncomingMessage } from 'node:http';

/**
 * A raw JSON POST that can be cut off mid-answer (fetch's client opens a spare connection on abort,
 * which would hold the server's close).
 */
export function rawPost(
  url: string,
  secret: string,
  body: object,
): { response: Promise<IncomingMessage>; destroy(): void } {
  const text = JSON.stringify(body);
  const request = httpRequest(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${secret}`,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
    },
    agent: false,
  });
  request.on('error', () => undefined);
  const response = new Promise<IncomingMessage>((resolve) => request.on('response', resolve));
  request.end(text);
  return { response, destroy: () => request.destroy() };
}
