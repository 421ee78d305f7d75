import type { Json } from '../../support/upstreams/index.js';
import type {
  ChatResult,
  Deployment,
  JsonChatResult,
  StreamChatResult,
} from '../../../src/server/gateway/providers/index.js';

/** Shared helpers of the provider tests. */

/** A deployment of `provider` pointing at a mock upstream. */
export function deployment(provider: string, baseUrl: string, overrides: Partial<Deployment> = {}): Deployment {
  const upstreamModel = provider === 'anthropic' ? 'claude-upstream' : 'gpt-upstream';
  return {
    id: `${provider}-1`,
    model: `public-${provider}`,
    provider,
    upstreamModel,
    baseUrl,
    apiKey: `key-${provider}-secret`,
    timeoutMs: 5000,
    ...overrides,
  };
}

/** Narrows a result to JSON. */
export function asJson(result: ChatResult): JsonChatResult {
  if (result.kind !== 'json') throw new Error('expected a JSON answer');
  return result;
}

/** Narrows a result to a stream. */
export function asStream(result: ChatResult): StreamChatResult {
  if (result.kind !== 'stream') throw new Error('expected a stream');
  return result;
}

/** All frames of a stream result. */
export async function frames(result: ChatResult): Promise<string[]> {
  const out: string[] = [];
  for await (const frame of asStream(result).events) out.push(frame);
  return out;
}

/** JSON payloads of frames (chat chunks or Messages events), `[DONE]` left out. */
export function payloadsOf(all: readonly string[]): Json[] {
  return all
    .flatMap((frame) =>
      frame
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6)),
    )
    .filter((data) => data !== '[DONE]')
    .map((data) => JSON.parse(data));
}

/** Event names of Messages frames. */
export function eventNames(all: readonly string[]): string[] {
  return all.map((frame) => /^event: (.*)$/m.exec(frame)?.[1] ?? '');
}

/** A signal that never aborts. */
export const NEVER = new AbortController().signal;
