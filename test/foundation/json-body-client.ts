import { request } from 'node:http';

/** One answer: status, headers and the body parsed as JSON (raw text when it is not JSON). */
export interface BodyAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: any;
}

/** Sends exact bytes with exact headers (fetch would recode text and refuse some headers). */
export function sendBytes(
  url: string,
  headers: Record<string, string>,
  payload: Buffer | string,
  method = 'POST',
): Promise<BodyAnswer> {
  return new Promise((resolve, reject) => {
    // A chunked body has no Content-Length (a decoded body's size is unknown until the end).
    const length = headers['transfer-encoding'] ? {} : { 'content-length': String(Buffer.byteLength(payload)) };
    const req = request(url, { method, headers: { ...length, ...headers } });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // Kept as text.
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      });
    });
    // The server may answer and close before the whole body is written (a refused bomb).
    req.on('error', reject);
    req.end(payload);
  });
}

/** JSON nested `depth` levels deep: arrays around one number. */
export const nestedArrays = (depth: number): string => `${'['.repeat(depth)}1${']'.repeat(depth)}`;

/** The shared error body. */
export const errorOf = (type: string, message: string, code: number) => ({ error: { type, message, code } });
