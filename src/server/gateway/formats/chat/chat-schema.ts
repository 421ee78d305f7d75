import { z } from 'zod';
import {
  boundedRecord,
  integerIn,
  MAX_CHAT_STOP_SEQUENCES,
  MAX_CHOICES,
  MAX_LOGIT_BIAS_ENTRIES,
  MAX_MESSAGES,
  MAX_PARTS,
  MAX_TOOLS,
  MAX_TOP_K,
  MAX_TOP_LOGPROBS,
  name,
  outputTokens,
  requiredName,
} from '../limits.js';
import { boundedNumber, validate, type Validated } from '../validation.js';

/**
 * The chat completions request (OpenAI's `POST /v1/chat/completions`). Objects are loose: fields
 * this gateway does not interpret (seed, response_format, logprobs, ...) pass through untouched to
 * OpenAI-compatible upstreams.
 */

const textPart = z.looseObject({ type: z.literal('text'), text: z.string() });
const imagePart = z.looseObject({
  type: z.literal('image_url'),
  image_url: z.looseObject({ url: z.string().min(1), detail: z.enum(['auto', 'low', 'high']).optional() }),
});
const audioPart = z.looseObject({
  type: z.literal('input_audio'),
  input_audio: z.looseObject({ data: z.string(), format: name() }),
});
const filePart = z.looseObject({ type: z.literal('file'), file: z.looseObject({}) });
const refusalPart = z.looseObject({ type: z.literal('refusal'), refusal: z.string() });

const userPart = z.discriminatedUnion('type', [textPart, imagePart, audioPart, filePart]);
const assistantPart = z.discriminatedUnion('type', [textPart, refusalPart]);

const textContent = z.union([z.string(), z.array(textPart).max(MAX_PARTS)]);

const functionCall = z.looseObject({
  id: requiredName(),
  type: z.literal('function'),
  function: z.looseObject({ name: requiredName(), arguments: z.string() }),
});
/** A call of a custom tool: free-form text input instead of JSON arguments. */
const customCall = z.looseObject({
  id: requiredName(),
  type: z.literal('custom'),
  custom: z.looseObject({ name: requiredName(), input: z.string() }),
});
const toolCall = z.discriminatedUnion('type', [functionCall, customCall]);

const systemMessage = z.looseObject({ role: z.literal('system'), content: textContent, name: name().optional() });
const developerMessage = z.looseObject({
  role: z.literal('developer'),
  content: textContent,
  name: name().optional(),
});
const userMessage = z.looseObject({
  role: z.literal('user'),
  content: z.union([z.string(), z.array(userPart).max(MAX_PARTS)]),
  name: name().optional(),
});
const assistantMessage = z.looseObject({
  role: z.literal('assistant'),
  content: z.union([z.string(), z.array(assistantPart).max(MAX_PARTS)]).nullish(),
  tool_calls: z.array(toolCall).max(MAX_PARTS).nullish(),
  refusal: z.string().nullish(),
  name: name().optional(),
});
const toolMessage = z.looseObject({ role: z.literal('tool'), content: textContent, tool_call_id: requiredName() });
/** The result of a legacy `function_call` (deprecated by OpenAI, still accepted). */
const functionMessage = z.looseObject({
  role: z.literal('function'),
  name: requiredName(),
  content: z.string().nullable(),
});

/** One message of the conversation. */
export const chatMessageSchema = z.discriminatedUnion('role', [
  systemMessage,
  developerMessage,
  userMessage,
  assistantMessage,
  toolMessage,
  functionMessage,
]);

const functionTool = z.looseObject({
  type: z.literal('function'),
  function: z.looseObject({
    name: requiredName(),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
    strict: z.boolean().nullish(),
  }),
});

/** A custom tool: the model writes free-form text (optionally held to a grammar) instead of JSON. */
const customTool = z.looseObject({
  type: z.literal('custom'),
  custom: z.looseObject({ name: requiredName(), description: z.string().optional() }),
});

// The object form first: a malformed object is then named by its own fields ("tool_choice.function is
// required"), while a string that is none of the three still reads as one.
const toolChoice = z.union([
  z.discriminatedUnion('type', [
    z.looseObject({ type: z.literal('function'), function: z.looseObject({ name: requiredName() }) }),
    z.looseObject({ type: z.literal('custom'), custom: z.looseObject({ name: requiredName() }) }),
    // The tools the model may use this turn, out of `tools` (which stays the same, for prompt caching).
    z.looseObject({
      type: z.literal('allowed_tools'),
      allowed_tools: z.looseObject({
        mode: z.enum(['auto', 'required']),
        tools: z.array(z.looseObject({ type: name() })).max(MAX_TOOLS),
      }),
    }),
  ]),
  z.enum(['none', 'auto', 'required']),
]);

/**
 * `seed` (OpenAI's is an int64): bodies are read as JSON doubles, which hold integers exactly only up
 * to 2^53 - 1; a larger seed would reach the model changed, and no one would know.
 */
const seed = z.number().int({
  error: (issue) =>
    issue.code === 'invalid_type'
      ? undefined
      : `must be an integer from -${Number.MAX_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER} (2^53 - 1): the gateway reads JSON numbers as 64-bit floats, which would change a larger seed`,
});

/** The chat completions request body. */
export const chatRequestSchema = z
  .looseObject({
    model: requiredName(),
    messages: z.array(chatMessageSchema).min(1).max(MAX_MESSAGES),
    stream: z.boolean().nullish(),
    stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullish(),
    temperature: boundedNumber(0, 2).nullish(),
    top_p: boundedNumber(0, 1).nullish(),
    max_tokens: outputTokens().nullish(),
    max_completion_tokens: outputTokens().nullish(),
    frequency_penalty: boundedNumber(-2, 2).nullish(),
    presence_penalty: boundedNumber(-2, 2).nullish(),
    n: integerIn(1, MAX_CHOICES).nullish(),
    stop: z.union([name(), z.array(name()).max(MAX_CHAT_STOP_SEQUENCES)]).nullish(),
    user: name().nullish(),
    // vLLM's, llama.cpp's and Anthropic's sampling knob: -1 and 0 turn it off on the servers that take it.
    top_k: integerIn(-1, MAX_TOP_K).nullish(),
    seed: seed.nullish(),
    tools: z
      .array(z.discriminatedUnion('type', [functionTool, customTool]))
      .max(MAX_TOOLS)
      .nullish(),
    tool_choice: toolChoice.nullish(),
    parallel_tool_calls: z.boolean().nullish(),
    // Loose: compatible servers define their own types (vLLM's structural_tag, llama.cpp's schema field).
    response_format: z.looseObject({ type: name() }).nullish(),
    top_logprobs: integerIn(0, MAX_TOP_LOGPROBS).nullish(),
    // Values stay loose: llama.cpp also takes `false` (ban the token) and a list of [token, bias] pairs.
    logit_bias: z
      .union([boundedRecord(z.unknown(), MAX_LOGIT_BIAS_ENTRIES), z.array(z.unknown()).max(MAX_LOGIT_BIAS_ENTRIES)])
      .nullish(),
  })
  .check((ctx) => {
    // OpenAI's own answer: stream options of a request that does not stream would be silently unused.
    const { stream, stream_options: options } = ctx.value;
    if (options != null && stream !== true)
      ctx.issues.push({
        code: 'custom',
        path: ['stream_options'],
        input: options,
        message: 'is only allowed when stream is true; send it with stream: true, or leave it out',
      });
  });

/** A validated chat completions request. */
export type ChatBody = z.output<typeof chatRequestSchema>;
/** One validated chat message. */
export type ChatMessage = z.output<typeof chatMessageSchema>;

/** Validates a chat completions request body. */
export function validateChatRequest(body: unknown): Validated<ChatBody> {
  return validate(chatRequestSchema, body);
}
