import { z } from 'zod';
import { boundedNumber, minInteger, validate, type Validated } from '../validation.js';

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
  input_audio: z.looseObject({ data: z.string(), format: z.string() }),
});
const filePart = z.looseObject({ type: z.literal('file'), file: z.looseObject({}) });
const refusalPart = z.looseObject({ type: z.literal('refusal'), refusal: z.string() });

const userPart = z.discriminatedUnion('type', [textPart, imagePart, audioPart, filePart]);
const assistantPart = z.discriminatedUnion('type', [textPart, refusalPart]);

const textContent = z.union([z.string(), z.array(textPart)]);

const toolCall = z.looseObject({
  id: z.string().min(1),
  type: z.literal('function'),
  function: z.looseObject({ name: z.string().min(1), arguments: z.string() }),
});

const systemMessage = z.looseObject({ role: z.literal('system'), content: textContent, name: z.string().optional() });
const developerMessage = z.looseObject({
  role: z.literal('developer'),
  content: textContent,
  name: z.string().optional(),
});
const userMessage = z.looseObject({
  role: z.literal('user'),
  content: z.union([z.string(), z.array(userPart)]),
  name: z.string().optional(),
});
const assistantMessage = z.looseObject({
  role: z.literal('assistant'),
  content: z.union([z.string(), z.array(assistantPart)]).nullish(),
  tool_calls: z.array(toolCall).nullish(),
  refusal: z.string().nullish(),
  name: z.string().optional(),
});
const toolMessage = z.looseObject({ role: z.literal('tool'), content: textContent, tool_call_id: z.string().min(1) });

/** One message of the conversation. */
export const chatMessageSchema = z.discriminatedUnion('role', [
  systemMessage,
  developerMessage,
  userMessage,
  assistantMessage,
  toolMessage,
]);

const functionTool = z.looseObject({
  type: z.literal('function'),
  function: z.looseObject({
    name: z.string().min(1),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
    strict: z.boolean().nullish(),
  }),
});

const toolChoice = z.union([
  z.enum(['none', 'auto', 'required']),
  z.looseObject({ type: z.literal('function'), function: z.looseObject({ name: z.string().min(1) }) }),
]);

/** The chat completions request body. */
export const chatRequestSchema = z.looseObject({
  model: z.string().min(1),
  messages: z.array(chatMessageSchema).min(1),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullish(),
  temperature: boundedNumber(0, 2).nullish(),
  top_p: boundedNumber(0, 1).nullish(),
  max_tokens: minInteger(1).nullish(),
  max_completion_tokens: minInteger(1).nullish(),
  frequency_penalty: boundedNumber(-2, 2).nullish(),
  presence_penalty: boundedNumber(-2, 2).nullish(),
  n: minInteger(1).nullish(),
  stop: z.union([z.string(), z.array(z.string()).max(4)]).nullish(),
  user: z.string().optional(),
  tools: z.array(functionTool).nullish(),
  tool_choice: toolChoice.nullish(),
  parallel_tool_calls: z.boolean().nullish(),
  // Loose: compatible servers define their own types (vLLM's structural_tag, llama.cpp's schema field).
  response_format: z.looseObject({ type: z.string() }).nullish(),
});

/** A validated chat completions request. */
export type ChatBody = z.output<typeof chatRequestSchema>;
/** One validated chat message. */
export type ChatMessage = z.output<typeof chatMessageSchema>;
/** One validated tool call of an assistant message. */
export type ChatToolCall = z.output<typeof toolCall>;

/** Validates a chat completions request body. */
export function validateChatRequest(body: unknown): Validated<ChatBody> {
  return validate(chatRequestSchema, body);
}
