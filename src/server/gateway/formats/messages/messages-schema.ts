import { z } from 'zod';
import {
  integerIn,
  MAX_MESSAGES,
  MAX_PARTS,
  MAX_STOP_SEQUENCES,
  MAX_TOOLS,
  MAX_TOP_K,
  name,
  outputTokens,
  requiredName,
} from '../limits.js';
import { boundedNumber, validate, type Validated } from '../validation.js';
import type { MessagesContentBlock, MessagesTextBlock } from './messages-wire.js';

/**
 * The Messages request (Anthropic's `POST /v1/messages`). Block types this gateway knows are checked
 * field by field; other block types (thinking, documents, server tools, ...) pass through loosely so
 * the native fast path keeps working as Anthropic adds them.
 */

/** A loose object with a `type`, checked against `shapes[type]` when that type is known. */
function typedObject(shapes: Readonly<Record<string, z.ZodType>>) {
  // A Map: a client's `type` such as `constructor` must not find Object.prototype's members.
  const known = new Map(Object.entries(shapes));
  return z.looseObject({ type: name() }).superRefine((value, ctx) => {
    const shape = known.get(value.type);
    if (!shape) return;
    const result = shape.safeParse(value, { reportInput: true });
    if (!result.success)
      for (const issue of result.error.issues) ctx.addIssue(issue as Parameters<typeof ctx.addIssue>[0]);
  });
}

const imageSource = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('base64'), media_type: requiredName(), data: z.string().min(1) }),
  z.looseObject({ type: z.literal('url'), url: z.string().min(1) }),
  z.looseObject({ type: z.literal('file'), file_id: requiredName() }),
]);

const textShape = z.looseObject({ text: z.string() });
const imageShape = z.looseObject({ source: imageSource });
const innerBlock = typedObject({ text: textShape, image: imageShape });

const contentBlock = typedObject({
  text: textShape,
  image: imageShape,
  tool_use: z.looseObject({ id: requiredName(), name: requiredName(), input: z.record(z.string(), z.unknown()) }),
  tool_result: z.looseObject({
    tool_use_id: requiredName(),
    content: z.union([z.string(), z.array(innerBlock).max(MAX_PARTS)]).optional(),
    is_error: z.boolean().optional(),
  }),
});

/** One turn of the conversation. */
export const messagesMessageSchema = z.looseObject({
  role: z.enum(['user', 'assistant']),
  content: z.union([z.string(), z.array(contentBlock).max(MAX_PARTS)]),
});

const systemBlock = z.looseObject({ type: z.literal('text'), text: z.string() });

/** Custom tools need `input_schema`; server tools (`web_search_...`) carry their own `type`. */
const tool = z
  .looseObject({
    name: requiredName(),
    type: name().optional(),
    description: z.string().optional(),
    input_schema: z.record(z.string(), z.unknown()).optional(),
    strict: z.boolean().optional(),
  })
  .superRefine((value, ctx) => {
    if ((value.type === undefined || value.type === 'custom') && value.input_schema === undefined) {
      ctx.addIssue({ code: 'custom', path: ['input_schema'], message: 'is required', input: undefined });
    }
  });

const toolChoice = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('auto'), disable_parallel_tool_use: z.boolean().optional() }),
  z.looseObject({ type: z.literal('any'), disable_parallel_tool_use: z.boolean().optional() }),
  z.looseObject({ type: z.literal('none') }),
  z.looseObject({
    type: z.literal('tool'),
    name: requiredName(),
    disable_parallel_tool_use: z.boolean().optional(),
  }),
]);

/**
 * Anthropic's rule: every turn has content, except a final assistant turn (a prefill to continue). A
 * translated request would otherwise lose the empty turn and reach the provider with no conversation.
 */
function noEmptyTurns(messages: ReadonlyArray<{ role: string; content: unknown }>, ctx: z.RefinementCtx): void {
  const isBlank = (text: unknown): boolean => typeof text === 'string' && text.trim() === '';
  const isBlankText = (block: unknown): boolean =>
    (block as { type?: unknown } | null)?.type === 'text' && isBlank((block as { text?: unknown }).text);
  // No blocks, blank text, or blocks that are all blank text (Anthropic refuses a whitespace-only text block).
  const isEmpty = (content: unknown): boolean =>
    Array.isArray(content) ? content.every(isBlankText) : isBlank(content);
  messages.forEach((message, index) => {
    const prefill = index === messages.length - 1 && message.role === 'assistant' && index > 0;
    if (isEmpty(message.content) && !prefill)
      ctx.addIssue({
        code: 'custom',
        path: [index, 'content'],
        message: 'must not be empty (only a final assistant turn after others may be)',
        input: message.content,
      });
  });
}

/** The Messages request body. */
export const messagesRequestSchema = z.looseObject({
  model: requiredName(),
  messages: z.array(messagesMessageSchema).min(1).max(MAX_MESSAGES).superRefine(noEmptyTurns),
  max_tokens: outputTokens(),
  system: z.union([z.string(), z.array(systemBlock).max(MAX_PARTS)]).optional(),
  stream: z.boolean().optional(),
  // The gateway's range, the same on every endpoint; the Anthropic provider clamps to its own 0..1.
  temperature: boundedNumber(0, 2).optional(),
  top_p: boundedNumber(0, 1).optional(),
  top_k: integerIn(0, MAX_TOP_K).optional(),
  stop_sequences: z.array(name()).max(MAX_STOP_SEQUENCES).optional(),
  tools: z.array(tool).max(MAX_TOOLS).optional(),
  tool_choice: toolChoice.optional(),
  metadata: z.looseObject({ user_id: name().nullish() }).optional(),
});

/** A custom tool (or a server tool, which carries its own `type`). */
export interface MessagesTool {
  name: string;
  type?: string;
  description?: string;
  input_schema?: Record<string, unknown>;
  strict?: boolean;
  [key: string]: unknown;
}

/** How the model must use the tools. */
export type MessagesToolChoice =
  | { type: 'auto'; disable_parallel_tool_use?: boolean }
  | { type: 'any'; disable_parallel_tool_use?: boolean }
  | { type: 'none' }
  | { type: 'tool'; name: string; disable_parallel_tool_use?: boolean };

/** A validated Messages request (written out: zod cannot infer typed blocks from loose checks). */
export interface MessagesBody {
  model: string;
  messages: Array<{ role: 'user' | 'assistant'; content: string | MessagesContentBlock[]; [key: string]: unknown }>;
  max_tokens: number;
  system?: string | MessagesTextBlock[];
  stream?: boolean;
  temperature?: number;
  top_p?: number;
  top_k?: number;
  stop_sequences?: string[];
  tools?: MessagesTool[];
  tool_choice?: MessagesToolChoice;
  metadata?: { user_id?: string | null; [key: string]: unknown };
  [key: string]: unknown;
}

/** Validates a Messages request body. */
export function validateMessagesRequest(body: unknown): Validated<MessagesBody> {
  return validate(messagesRequestSchema, body) as Validated<MessagesBody>;
}
