import { TranslationError } from '../translation-error.js';
import type { ResponsesBody } from './responses-schema.js';

/**
 * Responses parameters beyond the conversation itself, when the request is served over a chat or
 * Messages API. Settings whose absence leaves the answer's shape and meaning intact are dropped
 * (`reasoning`, `truncation`, `text.verbosity`, `service_tier`, `prompt_cache_key`, ...); these are
 * refused, because the model would answer without part of what the client sent, or the client would
 * get less than it asked for, with nothing to tell it so.
 */
export function refuseUntranslatableResponsesParams(body: ResponsesBody): void {
  if (body.prompt != null)
    throw new TranslationError(
      'prompt: prompt templates are kept and filled in by OpenAI; this model has no Responses API to read them, so send their text as instructions and input',
    );
  if (body.conversation != null)
    throw new TranslationError(
      "conversation: conversations are kept by OpenAI's Conversations API, which this model does not have; continue a kept response with previous_response_id, or send the earlier turns in input",
    );
  if (typeof body.top_logprobs === 'number' && body.top_logprobs > 0)
    throw new TranslationError('top_logprobs: this model is served without log probabilities');
  if (Array.isArray(body.include) && body.include.includes('message.output_text.logprobs'))
    throw new TranslationError(
      "include: 'message.output_text.logprobs' cannot be given: this model is served without log probabilities",
    );
}
