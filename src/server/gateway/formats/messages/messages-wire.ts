/** Shapes of Anthropic Messages content blocks, answers and stream events on the wire. */

/** A text block. */
export interface MessagesTextBlock {
  type: 'text';
  text: string;
  [key: string]: unknown;
}

/** Where an image block's bytes come from. */
export type MessagesImageSource =
  | { type: 'base64'; media_type: string; data: string }
  | { type: 'url'; url: string }
  | { type: 'file'; file_id: string };

/**
 * The model's reasoning. A Claude model signs its own; one the gateway writes for another model's
 * reasoning has an empty `signature`, since there is nothing to sign it with (thinking.ts).
 */
export interface MessagesThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}

/** An image block. */
export interface MessagesImageBlock {
  type: 'image';
  source: MessagesImageSource;
  [key: string]: unknown;
}

/** A tool call made by the assistant. */
export interface MessagesToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
  [key: string]: unknown;
}

/** A tool's result, sent in a user turn. */
export interface MessagesToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content?: string | Array<MessagesTextBlock | MessagesImageBlock | MessagesOtherBlock>;
  is_error?: boolean;
  [key: string]: unknown;
}

/** Blocks this gateway passes through natively but does not translate (thinking, documents, ...). */
export interface MessagesOtherBlock {
  type: string;
  [key: string]: unknown;
}

/** Any content block of a request. */
export type MessagesContentBlock =
  MessagesTextBlock | MessagesImageBlock | MessagesToolUseBlock | MessagesToolResultBlock | MessagesOtherBlock;

/** `stop_reason` values. */
export type MessagesStopReason = 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'refusal' | 'pause_turn';

/** Token usage as Messages reports it: the cache counts always present, 0 when nothing was cached. */
export interface MessagesUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

/** A non-streamed answer (`type: message`). */
export interface MessagesResponse {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: Array<MessagesThinkingBlock | MessagesTextBlock | MessagesToolUseBlock>;
  stop_reason: MessagesStopReason | null;
  stop_sequence: string | null;
  usage: MessagesUsage;
}
