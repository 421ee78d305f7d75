import { TranslationError } from '../../formats/translation-error.js';
import type { Deployment } from '../types.js';

/** The upstream name of the demo embeddings model (`demo/embed`); every other demo name is a chat model. */
const DEMO_EMBEDDINGS_MODEL = 'embed';

/**
 * Refuses embeddings on a demo chat model, as OpenAI refuses them on a chat model, naming the demo
 * model that embeds: a first try of the demo should end on the model that does what was asked.
 */
export function refuseDemoChatModelEmbedding(deployment: Deployment, upstreamModel: string): void {
  if (upstreamModel === DEMO_EMBEDDINGS_MODEL) return;
  throw new TranslationError(
    `model '${deployment.model}' does not support embeddings: it is a demo chat model; name demo/embed, the demo embeddings model`,
    'model',
  );
}

/** Refuses chat (and Messages, Responses) on the demo embeddings model, naming the demo chat model. */
export function refuseDemoEmbeddingsModelChat(deployment: Deployment, upstreamModel: string): void {
  if (upstreamModel !== DEMO_EMBEDDINGS_MODEL) return;
  throw new TranslationError(
    `model '${deployment.model}' does not support chat: it is the demo embeddings model (POST /v1/embeddings); name demo/echo, the demo chat model`,
    'model',
  );
}
