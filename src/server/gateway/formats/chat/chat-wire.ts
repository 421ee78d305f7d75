import type { IrSignedThinking } from '../ir.js';

/** Shapes of chat completions answers on the wire (what OpenAI returns and clients parse). */

/** A tool call in an answer. */
export interface ChatToolCallOut {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** Token usage as chat completions reports it. */
export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens: number };
  /** Prompt tokens written to the provider's prompt cache (Anthropic's, billed above input), as LiteLLM reports them. */
  cache_creation_input_tokens?: number;
}

/** `finish_reason` values. */
export type ChatFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'function_call';

/** A non-streamed answer (`object: chat.completion`). */
export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: Array<{
    index: number;
    message: {
      role: 'assistant';
      content: string | null;
      refusal: string | null;
      tool_calls?: ChatToolCallOut[];
      /** The model's reasoning, as DeepSeek's API writes it (not an OpenAI field). */
      reasoning_content?: string;
      /** A Claude model's thinking as it signed it, as LiteLLM returns it, to send back with the turn. */
      thinking_blocks?: IrSignedThinking[];
    };
    logprobs: null;
    finish_reason: ChatFinishReason;
  }>;
  usage: ChatUsage;
}

/** The delta of one streamed chunk. */
export interface ChatDelta {
  role?: 'assistant';
  content?: string | null;
  refusal?: string | null;
  /** A piece of the model's reasoning, as DeepSeek's API streams it. */
  reasoning_content?: string;
  /** A complete signed thinking block (see ChatCompletion's `thinking_blocks`). */
  thinking_blocks?: IrSignedThinking[];
  tool_calls?: Array<{
    index: number;
    id?: string;
    type?: 'function';
    function?: { name?: string; arguments?: string };
  }>;
}

/** One streamed chunk (`object: chat.completion.chunk`). */
export interface ChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: Array<{ index: number; delta: ChatDelta; logprobs?: null; finish_reason: ChatFinishReason | null }>;
  usage?: ChatUsage | null;
}
