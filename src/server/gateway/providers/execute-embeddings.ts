import { base64ToFloats, floatsToBase64, shorten } from '../formats/embeddings/embeddings-encoding.js';
import {
  embeddingInputs,
  type EmbeddingItem,
  type EmbeddingsBody,
  type EmbeddingsResponse,
} from '../formats/embeddings/embeddings-schema.js';
import { estimateTokens } from '../formats/token-estimate.js';
import { resolveProvider } from './registry.js';
import { callContext, type AttemptArgs } from './call-context.js';
import type { JsonAnswer } from './answer.js';
import { UnsupportedOperationError } from './upstream-error.js';

/** Arguments of one embeddings call. */
export interface ExecuteEmbeddingsArgs extends AttemptArgs {
  readonly body: EmbeddingsBody;
  /** The caller's own provider key (passthrough keys), used instead of the deployment's. */
  readonly apiKeyOverride?: string;
}

/**
 * Embeds the inputs on one deployment and answers in OpenAI's shape with the public model name.
 * `encoding_format` and `dimensions` are honoured even when the upstream ignores them (servers that
 * only return floats, or full-length vectors): vectors are re-encoded, or shortened and rescaled to
 * unit length as OpenAI does. Rejects with UnsupportedOperationError for providers without
 * embeddings (Anthropic), UpstreamError for upstream failures.
 */
export async function executeEmbeddings(
  args: ExecuteEmbeddingsArgs,
): Promise<JsonAnswer & { readonly body: EmbeddingsResponse }> {
  const { body, deployment } = args;
  const provider = resolveProvider(deployment).embeddings;
  if (!provider)
    throw new UnsupportedOperationError(
      `${deployment.model} cannot embed: ${deployment.provider} models have no embeddings API`,
    );
  const context = callContext(args);
  const result = await provider.embed(
    { ...body, model: context.upstreamModel },
    { ...context, apiKey: args.apiKeyOverride },
  );
  const encoding = body.encoding_format ?? 'float';
  const data = (Array.isArray(result.body?.data) ? result.body.data : []).map((item) =>
    reencode(item, encoding, body.dimensions),
  );
  const promptTokens =
    result.usage?.promptTokens ??
    embeddingInputs(body.input).reduce(
      (sum, input) => sum + (typeof input === 'string' ? estimateTokens(input) : input.length),
      0,
    );
  return {
    kind: 'json',
    body: {
      object: 'list',
      data,
      model: deployment.model,
      usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
    },
    usage: { promptTokens, completionTokens: 0 },
  };
}

function reencode(item: EmbeddingItem, encoding: 'float' | 'base64', dimensions: number | undefined): EmbeddingItem {
  const wanted = encoding === 'base64' ? 'string' : 'object';
  const length =
    typeof item.embedding === 'string' ? Math.floor((item.embedding.length * 3) / 16) : item.embedding.length;
  const tooLong = dimensions !== undefined && length > dimensions;
  if (typeof item.embedding === wanted && !tooLong)
    return { object: 'embedding', index: item.index, embedding: item.embedding };
  let vector = typeof item.embedding === 'string' ? base64ToFloats(item.embedding) : item.embedding;
  if (dimensions !== undefined && vector.length > dimensions) vector = shorten(vector, dimensions);
  return { object: 'embedding', index: item.index, embedding: encoding === 'base64' ? floatsToBase64(vector) : vector };
}
