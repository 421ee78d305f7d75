import type { MessagesThinkingBlock } from './messages-wire.js';

/**
 * Reasoning as Messages `thinking` blocks, both ways. A Claude model signs its thinking, and takes
 * it back only with that signature intact; another model's reasoning has no signature to carry, so
 * its block has an empty one, as LiteLLM writes it. The Anthropic SDKs type `signature` as a string
 * and keep the block as it is; such a block sent back reaches no model: a translated request drops
 * every thinking block, and a native one to Anthropic must leave it out (unsigned-thinking.ts), since
 * Anthropic refuses a whole request over a thinking block whose signature does not verify.
 */

/** The signature of a thinking block the gateway wrote: none. */
export const UNSIGNED = '';

/** A thinking block holding another model's reasoning. */
export function unsignedThinkingBlock(text: string): MessagesThinkingBlock {
  return { type: 'thinking', thinking: text, signature: UNSIGNED };
}

/**
 * The reasoning text of an Anthropic answer's thinking blocks, for a client of another format
 * (redacted thinking is encrypted: nothing to show). Blocks between tool calls join into one text,
 * as chat completions and the IR hold one.
 */
export function thinkingTextOf(blocks: ReadonlyArray<Record<string, unknown>>): string | undefined {
  const texts = blocks.flatMap((block) =>
    block.type === 'thinking' && typeof block.thinking === 'string' && block.thinking !== '' ? [block.thinking] : [],
  );
  return texts.length === 0 ? undefined : texts.join('\n\n');
}
