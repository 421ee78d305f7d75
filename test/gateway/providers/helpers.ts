import type { Json } from '../../support/upstreams/index.js';
import {
  UpstreamPools,
  type Deployment,
  type JsonAnswer,
  type ProviderAnswer,
  type StreamAnswer,
} from '../../../src/server/gateway/providers/index.js';

/** Shared helpers of the provider tests. */

/** The connection pools of one test file (closed in its afterAll). */
export const POOLS = new UpstreamPools();

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
    weight: 1,
    maxRetries: 0,
    explicit: true,
    ...overrides,
  };
}

/** Narrows a result to JSON. */
export function asJson(result: ProviderAnswer): JsonAnswer {
  if (result.kind !== 'json') throw new Error('expected a JSON answer');
  return result;
}

/** Narrows a result to a stream. */
export function asStream(result: ProviderAnswer): StreamAnswer {
  if (result.kind !== 'stream') throw new Error('expected a stream');
  return result;
}

/** All frames of a stream result. */
export async function frames(result: ProviderAnswer): Promise<string[]> {
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
