import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How a {@link startChatUpstream} answers. */
export interface ChatUpstreamOptions {
  /** Where it listens; 0 (the default) picks a free port. */
  readonly port?: number;
  /** The assistant's text for a request body (default: "hello"). */
  readonly answer?: (body: { messages?: { content?: unknown }[] }) => string;
  /** How long it waits before answering, in ms (default: at once). */
  readonly delayMs?: number;
  /** The usage it reports (default: 7 prompt and 3 completion tokens). */
  readonly usage?: { readonly prompt_tokens: number; readonly completion_tokens: number };
}

/** A running upstream: its server (to close) and the base URL a deployment names. */
export interface ChatUpstream {
  readonly server: Server;
  readonly baseUrl: string;
  close(): Promise<void>;
}

/**
 * An OpenAI-compatible chat completions upstream on 127.0.0.1 for tests whose requests must reach a
 * provider (priced usage, cache, answer patterns): a whole answer to every request, as OpenAI frames it.
 */
export async function startChatUpstream(options: ChatUpstreamOptions = {}): Promise<ChatUpstream> {
  const usage = options.usage ?? { prompt_tokens: 7, completion_tokens: 3 };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Parameters<
        NonNullable<ChatUpstreamOptions['answer']>
      >[0];
      const content = options.answer?.(body) ?? 'hello';
      const send = (): void => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            id: 'chatcmpl-e2e',
            object: 'chat.completion',
            created: Math.floor(Date.now() / 1000),
            model: 'e2e-upstream',
            choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
            usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
          }),
        );
      };
      if (options.delayMs) setTimeout(send, options.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  return {
    server,
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
