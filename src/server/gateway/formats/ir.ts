/**
 * The internal representation (IR) every client format maps to and from, so that N formats and M
 * providers need N + M translators instead of N x M. It follows Anthropic's shape where the two
 * formats differ (tool results are parts of a user turn, the system prompt sits beside the turns),
 * because that shape loses nothing when mapped to chat completions.
 */

/** Token counts of one call, as the gateway accounts them. */
export interface Usage {
  promptTokens: number;
  completionTokens: number;
  /** The part of `promptTokens` the provider read from its prompt cache, when it said. */
  cachedPromptTokens?: number;
  /** The part of `promptTokens` the provider wrote to its prompt cache (Anthropic bills it above input), when it said. */
  cacheWritePromptTokens?: number;
  /** Of `cacheWritePromptTokens`, those written for an hour (Anthropic bills them higher than 5-minute writes). */
  cacheWrite1hPromptTokens?: number;
  /** Web searches the provider ran for the request (Anthropic's server tool, billed per search), when it said. */
  webSearchRequests?: number;
  /** The part of `completionTokens` the model spent reasoning (OpenAI's reasoning tokens), when it said. */
  reasoningTokens?: number;
}

/** Where an image comes from: inline bytes or a URL the provider fetches. */
export type IrImageSource =
  | { readonly kind: 'base64'; readonly mediaType: string; readonly data: string }
  | { readonly kind: 'url'; readonly url: string };

/**
 * A prompt-cache breakpoint (Anthropic's `cache_control`): the prompt up to the part that carries it
 * is cached, for 5 minutes or for `ttl`. Chat clients send it for Claude as LiteLLM and OpenRouter take it.
 */
export interface IrCacheControl {
  readonly type: 'ephemeral';
  readonly ttl?: '5m' | '1h';
}

/** A run of text. */
export interface IrTextPart {
  readonly type: 'text';
  text: string;
  /** The model declined (chat completions' `refusal`): a Responses answer carries it as a `refusal` part. */
  readonly refusal?: true;
  readonly cacheControl?: IrCacheControl;
}

/** An image. */
export interface IrImagePart {
  readonly type: 'image';
  readonly source: IrImageSource;
  /** OpenAI's resolution hint, kept for OpenAI-compatible upstreams (Messages has no equivalent). */
  readonly detail?: 'auto' | 'low' | 'high';
  readonly cacheControl?: IrCacheControl;
  /** The client's field it came from, to name in a refusal by a provider that cannot read it. */
  readonly field?: string;
}

/**
 * A file sent inline with the prompt (a PDF): a Messages `document`, a chat `file` part, a Responses
 * `input_file`. Files kept at a provider (ids) or fetched from URLs have no form every provider reads.
 */
export interface IrFilePart {
  readonly type: 'file';
  readonly mediaType: string;
  /** The file's bytes, base64. */
  readonly data: string;
  /** Its name or title, when the client gave one (OpenAI requires a name; Anthropic shows a title). */
  readonly filename?: string;
  readonly cacheControl?: IrCacheControl;
  /** The client's field it came from, to name in a refusal by a provider that cannot read it. */
  readonly field?: string;
}

/** A tool call made by the assistant; `arguments` is JSON text, as chat completions carries it. */
export interface IrToolCallPart {
  readonly type: 'tool_call';
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
  /**
   * The token limit cut the call off, where its arguments cannot tell: an Anthropic answer that
   * stopped at `max_tokens` inside a `tool_use` block still carries an `input` object, made of the
   * JSON the model had written so far.
   */
  readonly cutOff?: boolean;
  readonly cacheControl?: IrCacheControl;
}

/** The result of a tool call, sent back by the user turn. */
export interface IrToolResultPart {
  readonly type: 'tool_result';
  readonly toolCallId: string;
  readonly content: ReadonlyArray<IrTextPart | IrImagePart>;
  readonly isError: boolean;
  readonly cacheControl?: IrCacheControl;
}

/** Any part of a turn. */
export type IrPart = IrTextPart | IrImagePart | IrFilePart | IrToolCallPart | IrToolResultPart;

/**
 * A Claude model's thinking as it signed it (or encrypted it: `redacted_thinking`), kept whole so
 * that it can go back to Anthropic, which wants the thinking that led to a tool call with the call.
 */
export type IrSignedThinking =
  | { readonly type: 'thinking'; readonly thinking: string; readonly signature: string }
  | { readonly type: 'redacted_thinking'; readonly data: string };

/** One turn of the conversation. */
export interface IrMessage {
  readonly role: 'user' | 'assistant';
  readonly content: readonly IrPart[];
  /**
   * The signed thinking an assistant turn opened with (chat's `thinking_blocks`, as LiteLLM carries
   * them): only a Claude model reads it, the others never get it.
   */
  readonly thinking?: readonly IrSignedThinking[];
}

/** A function the model may call; `parameters` is a JSON schema. */
export interface IrTool {
  readonly name: string;
  readonly description?: string;
  readonly parameters: Readonly<Record<string, unknown>>;
  /** Arguments held to `parameters` exactly (OpenAI's strict mode), when the client said so. */
  readonly strict?: boolean;
  readonly cacheControl?: IrCacheControl;
}

/** How the model must use the tools. */
export type IrToolChoice =
  | { readonly type: 'auto' }
  | { readonly type: 'none' }
  | { readonly type: 'required' }
  | { readonly type: 'tool'; readonly name: string };

/**
 * The answer must be JSON: any object when `schema` is absent (chat's `json_object`), otherwise a
 * value matching `schema` (chat's `json_schema`, Messages' `output_config.format`).
 */
export interface IrResponseFormat {
  readonly type: 'json';
  readonly schema?: Readonly<Record<string, unknown>>;
  /** The schema's name, as chat's `json_schema.name` carries it. */
  readonly name?: string;
  readonly description?: string;
  readonly strict?: boolean;
}

/** A conversation request, independent of the client's format. */
export interface IrRequest {
  readonly system: readonly string[];
  /**
   * Where each `system` text stood in the client's conversation: how many of `messages` came before
   * it. Absent, every one leads. Only chat completions can say it there; Messages has one system
   * prompt, ahead of the turns.
   */
  readonly systemAt?: readonly number[];
  /** The cache breakpoint of each `system` text, by index, where a client set one (absent: none). */
  readonly systemCacheControl?: ReadonlyArray<IrCacheControl | undefined>;
  readonly messages: readonly IrMessage[];
  readonly tools?: readonly IrTool[];
  readonly toolChoice?: IrToolChoice;
  readonly parallelToolCalls?: boolean;
  readonly maxTokens?: number;
  readonly temperature?: number;
  readonly topP?: number;
  readonly topK?: number;
  readonly stop?: readonly string[];
  readonly user?: string;
  readonly responseFormat?: IrResponseFormat;
  /**
   * A Responses client's `reasoning.effort`, or a Messages client's thinking budget as one
   * (messages/thinking-effort.ts): OpenAI's reasoning models take it as `reasoning_effort`.
   */
  readonly reasoningEffort?: string;
  /**
   * A thinking budget in Anthropic's own terms, from a chat client's `thinking` field (LiteLLM takes
   * it there): it wins over `reasoningEffort` for a Claude model (messages/thinking-request.ts).
   */
  readonly thinkingBudget?: number;
  /** The model's `per_model_max_tokens` (AttemptArgs.outputCap): thinking added must fit under it too. */
  readonly outputCap?: number;
  /**
   * The client shows the model's reasoning only when it asked for it: false for a Messages client
   * that did not enable `thinking` (Anthropic returns no thinking blocks then, and a client reading
   * `content[0].text` would get one). Unset: shown.
   */
  readonly showsReasoning?: boolean;
  readonly stream: boolean;
}

/** Why generation ended. */
export type IrStopReason = 'stop' | 'length' | 'tool_calls' | 'stop_sequence' | 'content_filter';

/** A complete answer. `usage` is absent when the upstream did not report it. */
export interface IrResponse {
  readonly id: string;
  readonly model: string;
  readonly content: ReadonlyArray<IrTextPart | IrToolCallPart>;
  /**
   * The model's reasoning, written out as text beside the answer (DeepSeek's and vLLM's
   * `reasoning_content`, OpenRouter's and Ollama's `reasoning`, Anthropic's thinking). It comes
   * before `content`. A field of its own rather than a part: it is shown to the client, never sent
   * back to a model, and what reads `content` (usage estimates among it) takes every part for
   * answer text or a call.
   */
  readonly reasoning?: string;
  /** The reasoning as the model signed it, when it did (Anthropic), to be sent back with the turn. */
  readonly thinkingBlocks?: readonly IrSignedThinking[];
  readonly stopReason: IrStopReason;
  readonly stopSequence: string | null;
  readonly usage?: Partial<Usage>;
}

/**
 * One event of a streamed answer. Tool calls are keyed by `index`, unique within the answer, so
 * that formats numbering them differently (chat: per tool call; Messages: per content block) meet.
 */
export type IrStreamEvent =
  | { readonly type: 'start'; readonly id: string; readonly model: string }
  | { readonly type: 'text'; readonly text: string; readonly refusal?: true }
  /** Reasoning text (IrResponse's `reasoning`), as it streams: before the answer's text. */
  | { readonly type: 'reasoning'; readonly text: string }
  | { readonly type: 'tool_call_start'; readonly index: number; readonly id: string; readonly name: string }
  | { readonly type: 'tool_call_delta'; readonly index: number; readonly arguments: string }
  | { readonly type: 'finish'; readonly stopReason: IrStopReason; readonly stopSequence: string | null }
  | { readonly type: 'usage'; readonly usage: Partial<Usage> }
  /** A thinking block complete with its signature (IrResponse's `thinkingBlocks`), once it ended. */
  | { readonly type: 'signed_thinking'; readonly block: IrSignedThinking }
  /**
   * The upstream is alive but has nothing to say yet (Anthropic's `ping`): passed on so that a client's
   * or proxy's idle timeout does not cut a healthy stream. Only after `start`.
   */
  | { readonly type: 'keepalive' };
