import type { OpenAIUpstream } from '../../support/upstreams/index.js';

/** One item of a Responses request's `input`, as the upstream recorded it. */
export type Item = Record<string, unknown>;

/**
 * A deployment calling `upstream`'s own Responses API with `apiKey`: several of them at one address,
 * a key each, stand for several OpenAI projects sharing the load of a model.
 */
export function nativeDeployment(upstream: OpenAIUpstream, id: string, model: string, apiKey: string) {
  return {
    id,
    model,
    provider: 'openai',
    upstream_model: 'gpt-4.1',
    base_url: upstream.url,
    api_key: apiKey,
    responses_api: 'native',
  };
}

/** What the upstream's `index`-th request carried: its key and its input items. */
export function upstreamCall(upstream: OpenAIUpstream, index: number) {
  const request = upstream.requests[index]!;
  return { authorization: request.headers.authorization, input: (request.body?.input ?? []) as Item[] };
}
