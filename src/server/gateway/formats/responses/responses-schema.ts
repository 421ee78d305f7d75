import { z } from 'zod';
import {
  boundedRecord,
  integerIn,
  MAX_MESSAGES,
  MAX_METADATA_ENTRIES,
  MAX_METADATA_KEY_CHARS,
  MAX_METADATA_VALUE_CHARS,
  MAX_PARTS,
  MAX_TOOLS,
  MAX_TOP_LOGPROBS,
  name,
  outputTokens,
  requiredName,
} from '../limits.js';
import { boundedNumber, validate, type Validated } from '../validation.js';

/**
 * The Responses request (OpenAI's `POST /v1/responses`), the subset that can be served over a chat
 * completions provider: text and image input items, function tools and their calls and outputs.
 * Hosted tools and other item types pass through loosely for a native Responses upstream.
 */

/** A loose object with a `type`, checked against `shapes[type]` when that type is known. */
function typedItem(shapes: Readonly<Record<string, z.ZodType>>) {
  // A Map: a client's `type` such as `constructor` must not find Object.prototype's members.
  const known = new Map(Object.entries(shapes));
  return z.looseObject({ type: name().optional() }).superRefine((value, ctx) => {
    // An item without a type is a message (EasyInputMessage).
    const shape = known.get(value.type ?? 'message');
    if (!shape) return;
    const result = shape.safeParse(value, { reportInput: true });
    if (!result.success)
      for (const issue of result.error.issues) ctx.addIssue(issue as Parameters<typeof ctx.addIssue>[0]);
  });
}

const contentPart = typedItem({
  input_text: z.looseObject({ text: z.string() }),
  output_text: z.looseObject({ text: z.string() }),
  refusal: z.looseObject({ refusal: z.string() }),
  input_image: z.looseObject({ image_url: z.string().min(1).nullish(), file_id: name().nullish() }),
});

const messageItem = z.looseObject({
  role: z.enum(['user', 'assistant', 'system', 'developer']),
  content: z.union([z.string(), z.array(contentPart).max(MAX_PARTS)]),
});

const inputItem = typedItem({
  message: messageItem,
  function_call: z.looseObject({ call_id: requiredName(), name: requiredName(), arguments: z.string() }),
  function_call_output: z.looseObject({
    call_id: requiredName(),
    output: z.union([z.string(), z.array(contentPart).max(MAX_PARTS)]),
  }),
  item_reference: z.looseObject({ id: requiredName() }),
});

const tool = typedItem({
  function: z.looseObject({
    name: requiredName(),
    description: z.string().nullish(),
    parameters: z.record(z.string(), z.unknown()).nullish(),
    strict: z.boolean().nullish(),
  }),
});

// Beyond these, OpenAI has a choice per hosted tool (`{type: "file_search"}`, `{type: "mcp", ...}`),
// `allowed_tools` and `custom`: they pass through loosely to a native Responses upstream.
const toolChoice = z.union([
  z.enum(['none', 'auto', 'required']),
  typedItem({ function: z.looseObject({ name: requiredName() }) }).refine((choice) => choice.type !== undefined, {
    message: 'is required',
    path: ['type'],
  }),
]);

/**
 * `reasoning.effort` values OpenAI takes (the `openai` SDK 6.x's ReasoningEffort; not every model
 * takes each): another one reached an OpenAI reasoning model over chat completions as its
 * `reasoning_effort` and came back as the provider's 400, a 502 to the client.
 */
const REASONING_EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const;

const reasoningSummary = z.enum(['auto', 'concise', 'detailed']).nullish();

// Checked on every path, as OpenAI checks them: translated, an unknown value would be echoed back as
// if it had been applied.
const reasoning = z.looseObject({
  effort: z.enum(REASONING_EFFORTS).nullish(),
  summary: reasoningSummary,
  generate_summary: reasoningSummary,
});
const textSettings = z.looseObject({ verbosity: z.enum(['low', 'medium', 'high']).nullish() });

/** The Responses request body. */
export const responsesRequestSchema = z.looseObject({
  model: requiredName(),
  input: z.union([z.string(), z.array(inputItem).max(MAX_MESSAGES)]),
  instructions: z.string().nullish(),
  stream: z.boolean().nullish(),
  store: z.boolean().nullish(),
  // Background mode leaves a response running at the provider, to be polled and cancelled there;
  // the gateway answers while the client's connection is open, so it is refused on every deployment.
  background: z
    .boolean()
    .nullish()
    .refine((value) => value !== true, {
      message:
        'is not supported: the gateway answers while the request is open; send it without background (with stream: true to see the answer as it is written)',
    }),
  previous_response_id: name().nullish(),
  max_output_tokens: outputTokens().nullish(),
  top_logprobs: integerIn(0, MAX_TOP_LOGPROBS).nullish(),
  temperature: boundedNumber(0, 2).nullish(),
  top_p: boundedNumber(0, 1).nullish(),
  tools: z.array(tool).max(MAX_TOOLS).nullish(),
  tool_choice: toolChoice.nullish(),
  parallel_tool_calls: z.boolean().nullish(),
  reasoning: reasoning.nullish(),
  text: textSettings.nullish(),
  truncation: z.enum(['auto', 'disabled']).nullish(),
  // Null is absent, as for its neighbours (Python clients send None for what they leave unset); made
  // undefined, so it is neither read as a user nor forwarded.
  user: name()
    .nullish()
    .transform((value) => value ?? undefined)
    .optional(),
  metadata: boundedRecord(
    z.string().max(MAX_METADATA_VALUE_CHARS),
    MAX_METADATA_ENTRIES,
    MAX_METADATA_KEY_CHARS,
  ).nullish(),
});

/** One content part of a Responses message item. */
export type ResponsesContentPart =
  | { type: 'input_text' | 'output_text'; text: string; [key: string]: unknown }
  | { type: 'refusal'; refusal: string; [key: string]: unknown }
  | { type: 'input_image'; image_url?: string | null; file_id?: string | null; [key: string]: unknown }
  | { type: string; [key: string]: unknown };

/** One input item. */
export type ResponsesInputItem =
  | {
      type?: 'message';
      role: 'user' | 'assistant' | 'system' | 'developer';
      content: string | ResponsesContentPart[];
      [key: string]: unknown;
    }
  | { type: 'function_call'; call_id: string; name: string; arguments: string; [key: string]: unknown }
  | { type: 'function_call_output'; call_id: string; output: string | ResponsesContentPart[]; [key: string]: unknown }
  | { type: string; [key: string]: unknown };

/** A validated Responses request (written out: zod cannot infer the typed items). */
export interface ResponsesBody {
  model: string;
  input: string | ResponsesInputItem[];
  instructions?: string | null;
  stream?: boolean | null;
  store?: boolean | null;
  previous_response_id?: string | null;
  max_output_tokens?: number | null;
  temperature?: number | null;
  top_p?: number | null;
  tools?: Array<{
    type: string;
    name?: string;
    description?: string | null;
    parameters?: Record<string, unknown> | null;
    [key: string]: unknown;
  }> | null;
  tool_choice?:
    | 'none'
    | 'auto'
    | 'required'
    | { type: 'function'; name: string; [key: string]: unknown }
    | { type: string; [key: string]: unknown }
    | null;
  parallel_tool_calls?: boolean | null;
  truncation?: 'auto' | 'disabled' | null;
  user?: string;
  metadata?: Record<string, string> | null;
  [key: string]: unknown;
}

/** Validates a Responses request body. */
export function validateResponsesRequest(body: unknown): Validated<ResponsesBody> {
  return validate(responsesRequestSchema, body) as Validated<ResponsesBody>;
}
