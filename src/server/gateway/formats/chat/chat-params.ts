import type { IrResponseFormat } from '../ir.js';
import { isObject, TranslationError } from '../translation-error.js';
import type { ChatBody } from './chat-schema.js';

/**
 * Chat completions parameters beyond the conversation itself, when a chat request is served by a
 * provider that does not speak chat completions (Anthropic, the demo provider). The rules, in both
 * directions, are tabled in docs/gateway-translation.md.
 *
 * Dropped without a word, because the answer keeps its shape and meaning without them:
 * - `seed`, `frequency_penalty`, `presence_penalty`: sampling knobs Anthropic does not have;
 * - `service_tier`, `store`, `metadata`, `prompt_cache_key`, `safety_identifier`: OpenAI account
 *   features (billing tier, stored completions, caching, abuse tracking);
 * - `prediction`: a latency optimisation; `verbosity`: a hint to OpenAI models (`reasoning_effort`
 *   and `thinking` become Claude's extended thinking: chat-thinking.ts);
 * - `name` on messages: Anthropic turns carry no names.
 *
 * Refused (TranslationError, answered 400 naming the parameter), because the client would silently
 * get less than it asked for: see refuseUntranslatableChatParams.
 */

type JsonObject = Record<string, unknown>;

/**
 * Throws a TranslationError naming the first parameter that asks for something only an OpenAI
 * model can give: several choices, log probabilities, token biases, audio, legacy functions, web
 * search.
 */
export function refuseUntranslatableChatParams(body: ChatBody): void {
  const fields = body as JsonObject;
  if (typeof body.n === 'number' && body.n > 1)
    throw TranslationError.at('n', `this model generates one choice per request, got ${body.n}`);
  if (fields.logprobs === true) throw TranslationError.at('logprobs', 'this model does not return log probabilities');
  if (typeof fields.top_logprobs === 'number' && fields.top_logprobs > 0)
    throw TranslationError.at('top_logprobs', 'this model does not return log probabilities');
  if (isObject(fields.logit_bias) && Object.keys(fields.logit_bias).length > 0)
    throw TranslationError.at('logit_bias', 'this model does not take token biases');
  if (fields.audio != null) throw TranslationError.at('audio', 'this model does not generate audio');
  if (Array.isArray(fields.modalities) && fields.modalities.includes('audio'))
    throw TranslationError.at('modalities', 'this model does not generate audio');
  if (fields.functions != null || fields.function_call != null) {
    throw TranslationError.at(
      fields.functions != null ? 'functions' : 'function_call',
      'legacy function calling is not translated for this model; send tools and tool_choice',
    );
  }
  if (fields.web_search_options != null)
    throw TranslationError.at('web_search_options', 'web search is not available for this model');
}

/**
 * `response_format` to the IR: `text` is the default (nothing), `json_object` is JSON without a
 * schema (with llama.cpp's `schema` extension honoured), `json_schema` carries its schema. Other
 * types (vLLM's `structural_tag`, ...) cannot be translated.
 */
export function chatResponseFormatToIr(value: unknown, path = 'response_format'): IrResponseFormat | undefined {
  if (value == null) return undefined;
  const format = value as JsonObject;
  switch (format.type) {
    case 'text':
      return undefined;
    case 'json_object':
      return isObject(format.schema) ? { type: 'json', schema: format.schema } : { type: 'json' };
    case 'json_schema':
      if (!isObject(format.json_schema))
        throw TranslationError.at(
          `${path}.json_schema`,
          `is required with type json_schema: an object with the answer's name and schema`,
        );
      return jsonSchemaFormatToIr(format.json_schema, `${path}.json_schema`);
    default:
      throw TranslationError.at(`${path}.type`, `${JSON.stringify(format.type)} cannot be translated for this model`);
  }
}

/** What OpenAI takes as a json_schema format's name. */
const FORMAT_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * A json_schema answer format's fields (chat's `response_format.json_schema`, the Responses API's
 * `text.format` itself), at `path`, to the IR. `name` and `schema` are required, as OpenAI requires
 * them: without its schema the format would ask for JSON of any shape, which a client that named
 * json_schema does not expect, and nothing would tell it.
 */
export function jsonSchemaFormatToIr(spec: JsonObject, path: string): IrResponseFormat {
  if (spec.name == null) throw TranslationError.at(`${path}.name`, `is required: the answer format's name`);
  if (typeof spec.name !== 'string' || !FORMAT_NAME.test(spec.name))
    throw TranslationError.at(
      `${path}.name`,
      `must be 1 to 64 letters, digits, underscores or dashes, got ${JSON.stringify(spec.name).slice(0, 100)}`,
    );
  if (!isObject(spec.schema))
    throw TranslationError.at(
      `${path}.schema`,
      'is required: the JSON Schema the answer must match, an object (for JSON of any shape, send type json_object)',
    );
  const out: { -readonly [K in keyof IrResponseFormat]: IrResponseFormat[K] } = {
    type: 'json',
    schema: spec.schema,
    name: spec.name,
  };
  if (typeof spec.description === 'string') out.description = spec.description;
  if (typeof spec.strict === 'boolean') out.strict = spec.strict;
  return out;
}

/** The IR's JSON answer format as chat's `response_format`. */
export function chatResponseFormatFromIr(format: IrResponseFormat): JsonObject {
  if (format.schema === undefined) return { type: 'json_object' };
  const spec: JsonObject = { name: format.name ?? 'response' };
  if (format.description !== undefined) spec.description = format.description;
  spec.schema = format.schema;
  if (format.strict !== undefined) spec.strict = format.strict;
  return { type: 'json_schema', json_schema: spec };
}
