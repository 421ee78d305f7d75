import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An OpenAI-compatible upstream that sends its response headers at once and its body only later, as
 * vLLM, llama.cpp and many local servers do while the prompt is read: a chat stream's first event, or
 * a whole JSON answer, `bodyAfterMs` after the headers (never, when undefined).
 */
export interface LateBodyUpstream {
  /** Base URL to configure as a deployment's `base_url`. */
  readonly url: string;
  /** How long after its headers the body starts, for the next requests; undefined: it never does. */
  bodyAfterMs: number | undefined;
  /** Every request's outcome, oldest first: whether the gateway read the answer to its end or left. */
  readonly outcomes: Array<'pending' | 'completed' | 'aborted'>;
  close(): Promise<void>;
}

const chunk = (delta: Record<string, unknown>, finish: string | null = null): string =>
  `data: ${JSON.stringify({
    id: 'chatcmpl-late',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'late-model',
    choices: [{ index: 0, delta, finish_reason: finish }],
  })}\n\n`;

/** The stream's frames: the text in one event, then its end. */
function frames(text: string): string[] {
  return [chunk({ role: 'assistant', content: text }), chunk({}, 'stop'), 'data: [DONE]\n\n'];
}

/** A chat completion answering `text`, read whole. */
function completion(text: string): string {
  return JSON.stringify({
    id: 'chatcmpl-late',
    object: 'chat.completion',
    created: 1,
    model: 'late-model',
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  });
}

/** Starts the upstream on 127.0.0.1:0; every answer says `text`. */
export async function startLateBodyUpstream(text = 'late but whole'): Promise<LateBodyUpstream> {
  const outcomes: LateBodyUpstream['outcomes'] = [];
  const upstream = { bodyAfterMs: undefined as number | undefined };
  const server: Server = createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => {
      const index = outcomes.push('pending') - 1;
      response.on('close', () => {
        outcomes[index] = response.writableFinished ? 'completed' : 'aborted';
      });
      const stream = (JSON.parse(Buffer.concat(parts).toString('utf8')) as { stream?: boolean }).stream === true;
      response.writeHead(200, { 'content-type': stream ? 'text/event-stream' : 'application/json' });
      response.flushHeaders();
      const after = upstream.bodyAfterMs;
      if (after === undefined) return;
      setTimeout(() => {
        if (response.destroyed) return;
        if (stream) for (const frame of frames(text)) response.write(frame);
        else response.write(completion(text));
        response.end();
      }, after);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(upstream, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    outcomes,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
