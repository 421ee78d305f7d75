import type { IrSignedThinking } from '../ir.js';
import { isObject, TranslationError } from '../translation-error.js';
import { signedThinkingOf } from '../messages/signed-thinking.js';
import { EFFORT_BUDGETS, MIN_THINKING_BUDGET } from '../messages/thinking-request.js';

/**
 * What a chat client asks of a model's thinking, for a provider that does not speak chat completions:
 * OpenAI's `reasoning_effort`, or Anthropic's own `thinking` object sent as an extra field (LiteLLM
 * takes it there; it wins, being exact). Values a Claude model could not take are refused naming the
 * field, rather than dropped: the client would get an answer without the thinking it asked for.
 */
export function chatThinkingToIr(body: Record<string, unknown>): { reasoningEffort?: string; thinkingBudget?: number } {
  const { reasoning_effort: effort, thinking } = body;
  if (thinking != null) return thinkingFieldToIr(thinking);
  if (effort == null) return {};
  if (typeof effort !== 'string' || !Object.hasOwn(EFFORT_BUDGETS, effort))
    throw TranslationError.at(
      'reasoning_effort',
      `must be one of ${Object.keys(EFFORT_BUDGETS).join(', ')}, got ${JSON.stringify(effort).slice(0, 40)}`,
    );
  return { reasoningEffort: effort };
}

function thinkingFieldToIr(thinking: unknown): { thinkingBudget?: number } {
  if (!isObject(thinking) || (thinking.type !== 'enabled' && thinking.type !== 'disabled'))
    throw TranslationError.at('thinking', 'must be {"type": "enabled", "budget_tokens": N} or {"type": "disabled"}');
  if (thinking.type === 'disabled') return {};
  const budget = thinking.budget_tokens;
  if (typeof budget !== 'number' || !Number.isInteger(budget) || budget < MIN_THINKING_BUDGET)
    throw TranslationError.at(
      'thinking.budget_tokens',
      `must be an integer of at least ${MIN_THINKING_BUDGET} (Anthropic's least), got ${JSON.stringify(budget ?? null).slice(0, 40)}`,
    );
  return { thinkingBudget: budget };
}

/**
 * An assistant message's `thinking_blocks` (LiteLLM's field, as the gateway's answers carry them):
 * the signed ones go back to a Claude model ahead of the turn's text and calls. A block without a
 * signature (another model's reasoning) is left out, as Anthropic would refuse it; anything that is
 * no thinking block is refused naming it.
 */
export function chatThinkingBlocksToIr(message: object, path: string): { thinking?: IrSignedThinking[] } {
  const blocks = (message as { thinking_blocks?: unknown }).thinking_blocks;
  if (blocks == null) return {};
  if (!Array.isArray(blocks)) throw TranslationError.at(path, 'must be an array of thinking blocks');
  const thinking = blocks.flatMap((block: unknown, index) => {
    if (!isObject(block) || (block.type !== 'thinking' && block.type !== 'redacted_thinking'))
      throw TranslationError.at(
        `${path}[${index}]`,
        'must be {"type": "thinking", "thinking", "signature"} or {"type": "redacted_thinking", "data"}',
      );
    return signedThinkingOf(block) ?? [];
  });
  return thinking.length === 0 ? {} : { thinking };
}
