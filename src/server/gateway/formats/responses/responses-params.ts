import { closestName } from '../../../../shared/closest-name.js';
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
  refuseUnknownParams(body);
  if (body.prompt != null)
    throw TranslationError.at(
      'prompt',
      'prompt templates are kept and filled in by OpenAI; this model has no Responses API to read them, so send their text as instructions and input',
    );
  if (body.conversation != null)
    throw TranslationError.at(
      'conversation',
      "conversations are kept by OpenAI's Conversations API, which this model does not have; continue a kept response with previous_response_id, or send the earlier turns in input",
    );
  if (typeof body.top_logprobs === 'number' && body.top_logprobs > 0)
    throw TranslationError.at('top_logprobs', 'this model is served without log probabilities');
  const unknownInclude = includeProblem(body.include);
  if (unknownInclude !== undefined) throw unknownInclude;
  if (Array.isArray(body.include) && body.include.includes('message.output_text.logprobs'))
    throw TranslationError.at(
      'include',
      "'message.output_text.logprobs' cannot be given: this model is served without log probabilities",
    );
}

/** Every value of OpenAI's `include` (the `openai` SDK 6.x's ResponseIncludable). */
const INCLUDABLE: readonly string[] = [
  'code_interpreter_call.outputs',
  'computer_call_output.output.image_url',
  'file_search_call.results',
  'message.input_image.image_url',
  'message.output_text.logprobs',
  'reasoning.encrypted_content',
  'web_search_call.action.sources',
  'web_search_call.results',
];

/**
 * What is wrong with an `include` (of a request body, or of a kept response's retrieval): a value
 * OpenAI does not define, refused as OpenAI refuses it rather than dropped unnoticed (a misspelt one
 * would never be included); undefined when nothing is.
 */
export function includeProblem(include: unknown): TranslationError | undefined {
  if (include == null) return undefined;
  if (!Array.isArray(include) || include.some((value) => typeof value !== 'string'))
    return TranslationError.at('include', 'must be an array of strings');
  const values = include as string[];
  const index = values.findIndex((value) => !INCLUDABLE.includes(value));
  if (index < 0) return undefined;
  return TranslationError.at(
    `include[${index}]`,
    `'${values[index]!.slice(0, 100)}' is not a value include takes; it takes ${INCLUDABLE.join(', ')}`,
  );
}

/** Every top-level parameter of OpenAI's Responses request (the `openai` SDK 6.x's ResponseCreateParams). */
const RESPONSES_PARAMS: ReadonlySet<string> = new Set([
  'background',
  'context_management',
  'conversation',
  'include',
  'input',
  'instructions',
  'max_output_tokens',
  'max_tool_calls',
  'metadata',
  'model',
  'moderation',
  'parallel_tool_calls',
  'previous_response_id',
  'prompt',
  'prompt_cache_key',
  'prompt_cache_options',
  'prompt_cache_retention',
  'reasoning',
  'safety_identifier',
  'service_tier',
  'store',
  'stream',
  'stream_options',
  'temperature',
  'text',
  'tool_choice',
  'tools',
  'top_logprobs',
  'top_p',
  'truncation',
  'user',
]);

/** Chat completions parameters sent to the Responses API, and where it takes them. */
const CHAT_NAMES: ReadonlyMap<string, string> = new Map([
  ['max_tokens', 'max_output_tokens'],
  ['max_completion_tokens', 'max_output_tokens'],
  ['messages', 'input'],
  ['response_format', 'text.format'],
  ['functions', 'tools'],
  ['function_call', 'tool_choice'],
]);

/**
 * A parameter OpenAI's Responses API does not have is refused, as OpenAI refuses it: served over chat
 * completions or Messages it would be dropped without a word, and a `max_tokens` meant as the limit
 * would leave the answer unlimited. A near miss names the parameter meant (`max_output_token`), and
 * chat completions' names are pointed to their Responses names.
 */
function refuseUnknownParams(body: ResponsesBody): void {
  for (const name of Object.keys(body)) {
    if (RESPONSES_PARAMS.has(name)) continue;
    const moved = CHAT_NAMES.get(name);
    const meant = moved === undefined ? closestName(name, [...RESPONSES_PARAMS]) : undefined;
    const hint =
      moved !== undefined ? `; it takes this as ${moved}` : meant !== undefined ? `; did you mean '${meant}'?` : '';
    throw TranslationError.at(name.slice(0, 100), 'unknown parameter of the Responses API' + hint);
  }
}
