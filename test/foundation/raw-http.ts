import { connect, type Socket } from 'node:net';

/** One HTTP answer read off a raw socket. */
export interface RawAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** The address of a server URL such as `http://127.0.0.1:8747`. */
export function addressOf(url: string): { host: string; port: number } {
  const parsed = new URL(url);
  return { host: parsed.hostname.replace(/^\[|\]$/g, ''), port: Number(parsed.port) };
}

/** Opens a TCP connection to a server URL. */
export async function openSocket(url: string): Promise<Socket> {
  const socket = connect(addressOf(url));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return socket;
}

/** Parses the first complete answer in `data`, or undefined while it is incomplete (content-length framing only). */
export function parseAnswer(data: Buffer): RawAnswer | undefined {
  const end = data.indexOf('\r\n\r\n');
  if (end === -1) return undefined;
  const [statusLine = '', ...lines] = data.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  const body = data.subarray(end + 4);
  if (body.length < length) return undefined;
  return { status: Number(statusLine.split(' ')[1]), headers, body: body.subarray(0, length).toString('utf8') };
}

/** Collects what a socket receives until it closes (or `timeoutMs` passes), without failing on resets. */
export function collect(socket: Socket, timeoutMs = 10_000): Promise<{ data: Buffer; error?: string }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let error: string | undefined;
    if (socket.closed) {
      // Closed before anyone listened: what is left is what the stream still buffers.
      for (let chunk = socket.read() as Buffer | null; chunk; chunk = socket.read() as Buffer | null)
        chunks.push(chunk);
      resolve({ data: Buffer.concat(chunks), error: 'closed' });
      return;
    }
    const timer = setTimeout(() => socket.destroy(), timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error = e.code ?? e.message;
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ data: Buffer.concat(chunks), error });
    });
    // A paused socket stays paused when a data listener is added.
    socket.resume();
  });
}

/** Sends raw bytes and reads the one answer, then closes the socket. */
export async function rawRequest(url: string, request: string | Buffer): Promise<RawAnswer> {
  const socket = await openSocket(url);
  const received = collect(socket);
  socket.write(request);
  const { data } = await received;
  const answer = parseAnswer(data);
  if (!answer) throw new Error(`no complete answer, got ${JSON.stringify(data.toString('latin1').slice(0, 300))}`);
  return answer;
}

/** Resolves once the socket closes, or with false after `timeoutMs`. */
export function closedWithin(socket: Socket, timeoutMs: number): Promise<boolean> {
  if (socket.destroyed) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** A UUID as the services mint them. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
