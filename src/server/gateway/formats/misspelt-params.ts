import { closestName } from '../../../shared/closest-name.js';
import { TranslationError } from './translation-error.js';

/**
 * Parameters of OpenAI's chat completions (openai 6.x's ChatCompletionCreateParams), and extensions
 * of OpenAI-compatible servers that are not typos of them.
 */
export const CHAT_PARAMS: ReadonlySet<string> = new Set([
  ...['messages', 'model', 'audio', 'frequency_penalty', 'function_call', 'functions', 'logit_bias', 'logprobs'],
  ...['max_completion_tokens', 'max_tokens', 'metadata', 'modalities', 'moderation', 'n', 'parallel_tool_calls'],
  ...['prediction', 'presence_penalty', 'prompt_cache_key', 'prompt_cache_options', 'prompt_cache_retention'],
  ...['reasoning_effort', 'response_format', 'safety_identifier', 'seed', 'service_tier', 'stop', 'store'],
  ...['stream', 'stream_options', 'temperature', 'tool_choice', 'tools', 'top_logprobs', 'top_p', 'user'],
  ...['verbosity', 'web_search_options'],
  // vLLM's, llama.cpp's, OpenRouter's: near some of the above (top_k, top_p), but not typos of them.
  ...['top_k', 'min_p', 'repetition_penalty', 'reasoning', 'thinking', 'chat_template_kwargs'],
]);

/**
 * Parameters of Anthropic's Messages (the SDK's MessageCreateParams, beta ones and those newer
 * models no longer take included).
 */
export const MESSAGES_PARAMS: ReadonlySet<string> = new Set([
  ...['max_tokens', 'messages', 'model', 'cache_control', 'container', 'context_management', 'diagnostics'],
  ...['inference_geo', 'mcp_servers', 'metadata', 'output_config', 'output_format', 'service_tier', 'speed'],
  ...['stop_sequences', 'stream', 'system', 'temperature', 'thinking', 'tool_choice', 'tools', 'top_k', 'top_p'],
  ...['user_profile_id', 'workspace_id', 'betas', 'compaction', 'fallbacks', 'thread', 'billing_policy'],
  'fallback_credit_token',
]);

/**
 * Refuses a parameter that is a misspelling of one of `api`'s (`temprature`), naming the one meant.
 * On a translated path an unknown parameter is dropped (a new one the gateway does not know yet must
 * not fail a request, Claude Code's least of all), so a typo would be dropped without a word, where
 * the provider itself would have refused it; one that resembles no known name is still dropped.
 */
export function refuseMisspeltParams(body: object, known: ReadonlySet<string>, api: string): void {
  for (const name of Object.keys(body)) {
    if (known.has(name)) continue;
    const meant = closestName(name, [...known]);
    if (meant !== undefined)
      throw TranslationError.at(name.slice(0, 100), `unknown parameter of the ${api} API; did you mean '${meant}'?`);
  }
}
