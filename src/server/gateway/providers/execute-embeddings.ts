import { checkEmbeddingsAnswer, type CheckedEmbedding } from '../formats/embeddings/embeddings-answer.js';
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
import { redact } from './http-client.js';
import { UnsupportedOperationError, UpstreamError } from './upstream-error.js';

/** Arguments of one embeddings call. */
export interface ExecuteEmbeddingsArgs extends AttemptArgs {
  readonly body: EmbeddingsBody;
  /** The caller's own provider key (passthrough keys), used instead of the deployment's. */
  readonly apiKeyOverride?: string;
}

/**
 * Embeds the inputs on one deployment and answers in OpenAI's shape with the public model name.
 * The upstream's vectors are checked against the request first (see checkEmbeddingsAnswer): one that
 * does not answer it is an UpstreamError `invalid_response`, not retried on that deployment, like any
 * 2xx that is no answer (another deployment is tried, unless no other could answer it either).
 * `encoding_format` and `dimensions` are honoured even when the upstream ignores them (servers that
 * only return floats, or full-length vectors): vectors are re-encoded, or shortened and rescaled to
 * unit length as OpenAI does. Rejects with UnsupportedOperationError for providers without
 * embeddings (Anthropic), UpstreamError for upstream failures.
 */
export async function executeEmbeddings(
  args: ExecuteEmbeddingsArgs,
): Promise<JsonAnswer & { readonly body: EmbeddingsResponse }> {
  const { body, deployment } = args;
  const provider = resolveProvider(deployment);
  if (!provider.embeddings)
    throw new UnsupportedOperationError(
      `${deployment.model} cannot embed: ${deployment.provider} models have no embeddings API`,
    );
  const context = callContext(args);
  const result = await provider.embeddings.embed(
    { ...body, model: context.upstreamModel },
    { ...context, apiKey: args.apiKeyOverride },
  );
  const inputs = embeddingInputs(body.input);
  const encoding = body.encoding_format ?? 'float';
  const checked = checkEmbeddingsAnswer(result.body?.data, {
    inputs: inputs.length,
    encoding,
    dimensions: body.dimensions,
  });
  if (!checked.ok) {
    // The answer's own values may be quoted: never a key the upstream echoed.
    const secrets = args.apiKeyOverride === undefined ? provider.secrets : [...provider.secrets, args.apiKeyOverride];
    // Embeddings APIs answer 200; the provider hands over only the parsed body of its 2xx.
    throw new UpstreamError(redact(`${deployment.provider} upstream answered with ${checked.problem}`, secrets), {
      status: 200,
      // The same deployment answers the same vectors again; another may answer them right.
      retryable: false,
      // What no deployment would change is the request's asking, not the deployment's failing.
      requestFault: !checked.retryable,
      upstreamType: 'invalid_response',
      requestId: args.report?.upstreamRequestId,
    });
  }
  const data = checked.embeddings.map((item) => reencode(item, encoding, body.dimensions));
  // Every input holds a token at least, so a reported 0 is a server that does not count (LM Studio's
  // embeddings say 0): taken at its word, the call would be free and pass every token budget.
  const reported = result.usage?.promptTokens;
  const promptTokens =
    reported !== undefined && reported > 0
      ? reported
      : inputs.reduce((sum, input) => sum + (typeof input === 'string' ? estimateTokens(input) : input.length), 0);
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

/** A checked vector in the encoding and length the client asked for. */
function reencode(item: CheckedEmbedding, encoding: 'float' | 'base64', dimensions: number | undefined): EmbeddingItem {
  const { index, embedding } = item;
  const tooLong = dimensions !== undefined && item.dimensions > dimensions;
  // Base64 comes only where it was asked, so a vector of the asked encoding and length passes as it is.
  if (!tooLong && (typeof embedding === 'string') === (encoding === 'base64'))
    return { object: 'embedding', index, embedding };
  let vector = typeof embedding === 'string' ? base64ToFloats(embedding) : embedding;
  if (tooLong) vector = shorten(vector, dimensions);
  return { object: 'embedding', index, embedding: encoding === 'base64' ? floatsToBase64(vector) : vector };
}
