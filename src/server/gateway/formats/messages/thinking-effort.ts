import { isObject } from '../translation-error.js';

/**
 * Extended thinking as OpenAI's reasoning effort, for a reasoning model served over chat completions:
 * a budget up to 1024 tokens (Anthropic's least) is `low`, up to 8192 `medium`, more `high`. Thinking
 * disabled, absent, or without a budget asks for no effort, and the model thinks at its default.
 */
const LOW_UP_TO = 1024;
const MEDIUM_UP_TO = 8192;

/** The reasoning effort a Messages `thinking` parameter asks for, if any. */
export function thinkingEffort(thinking: unknown): { reasoningEffort?: string } {
  if (!isObject(thinking) || thinking.type !== 'enabled' || typeof thinking.budget_tokens !== 'number') return {};
  const budget = thinking.budget_tokens;
  return { reasoningEffort: budget <= LOW_UP_TO ? 'low' : budget <= MEDIUM_UP_TO ? 'medium' : 'high' };
}
