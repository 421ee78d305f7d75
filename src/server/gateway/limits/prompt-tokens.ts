import { chatCodec, messagesCodec } from '../formats/codec.js';
import type { IrPart, IrRequest } from '../formats/ir.js';
import { estimateFileTokens } from '../formats/token-estimate.js';
import { countTextTokens } from '../formats/tokenizer.js';
import { responsesRequestToIr } from '../formats/responses/responses-request-ir.js';
import type { ResponsesBody } from '../formats/responses/responses-schema.js';
import type { Endpoint } from '../pipeline/request-context.js';

/** Chat templates add a few tokens per turn (role markers), as OpenAI's own counting guide says. */
const TOKENS_PER_MESSAGE = 3;
/** A low-detail image at OpenAI; a fair floor for any provider. */
const TOKENS_PER_IMAGE = 85;

/** A request's prompt tokens, and whether the count is an estimate (another tokenizer than the model's). */
export interface PromptTokens {
  readonly tokens: number;
  readonly estimated: boolean;
}

/**
 * The prompt tokens of a request body, counted with OpenAI's o200k tokenizer (exact for the GPT-4o
 * and later families). Other models' tokenizers are not public (Claude's) or differ slightly, so
 * their counts are marked as estimates; the request is settled with the provider's own count later.
 */
export function countPromptTokens(endpoint: Endpoint, body: Record<string, unknown>, model: string): PromptTokens {
  const estimated = !/^(openai\/|azure\/)?(gpt-4o|gpt-4\.1|gpt-5|o[134]|chatgpt|text-embedding-3)/.test(model);
  try {
    return { tokens: tokensOf(endpoint, body), estimated };
  } catch {
    // A body the conversation model cannot hold (a native-only parameter such as `n`, or an item type
    // it does not know) is still a valid request for its own provider: count its JSON, an overestimate.
    return { tokens: countTextTokens(JSON.stringify(conversationFields(body))), estimated: true };
  }
}

/** The parts of a body that reach the model as its prompt, in each format. */
function conversationFields(body: Record<string, unknown>): unknown[] {
  return [body.system, body.instructions, body.messages, body.input, body.tools];
}

function tokensOf(endpoint: Endpoint, body: Record<string, unknown>): number {
  switch (endpoint) {
    case 'chat':
      return conversationTokens(chatCodec.requestToIr(body));
    case 'messages':
      return conversationTokens(messagesCodec.requestToIr(body));
    case 'responses':
      return conversationTokens(responsesRequestToIr(body as ResponsesBody));
    case 'embeddings':
      return embeddingTokens(body.input);
    default:
      return 0;
  }
}

/** System, turns, tool definitions and a JSON answer's schema, as the model receives them. */
function conversationTokens(request: IrRequest): number {
  const texts: string[] = [...request.system];
  let tokens = 0;
  for (const message of request.messages) {
    tokens += TOKENS_PER_MESSAGE;
    for (const part of message.content) tokens += collect(part, texts);
  }
  for (const tool of request.tools ?? [])
    texts.push(tool.name, tool.description ?? '', JSON.stringify(tool.parameters));
  if (request.responseFormat?.schema !== undefined) texts.push(JSON.stringify(request.responseFormat.schema));
  return tokens + countTextTokens(texts.join('\n'));
}

/** Adds a part's texts to `texts`; returns the tokens it costs beyond them (images). */
function collect(part: IrPart, texts: string[]): number {
  switch (part.type) {
    case 'text':
      texts.push(part.text);
      return 0;
    case 'image':
      return TOKENS_PER_IMAGE;
    case 'file':
      return estimateFileTokens(part);
    case 'tool_call':
      texts.push(part.name, part.arguments);
      return 0;
    case 'tool_result':
      return part.content.reduce((sum, inner) => sum + collect(inner, texts), 0);
  }
}

/** Embeddings input: texts are counted, token arrays are their length. */
function embeddingTokens(input: unknown): number {
  if (typeof input === 'string') return countTextTokens(input);
  if (!Array.isArray(input) || input.length === 0) return 0;
  if (typeof input[0] === 'number') return input.length;
  let tokens = 0;
  for (const item of input) tokens += embeddingTokens(item);
  return tokens;
}
