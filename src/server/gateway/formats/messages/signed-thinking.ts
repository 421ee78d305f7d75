import type { IrSignedThinking } from '../ir.js';

/**
 * A Messages block as signed thinking the gateway can hand back later: a thinking block with its
 * signature, or a redacted one with its data. A block without a signature (one the gateway wrote
 * for another model's reasoning: thinking.ts) is not: Anthropic would refuse it.
 */
export function signedThinkingOf(block: Readonly<Record<string, unknown>>): IrSignedThinking | undefined {
  if (block.type === 'thinking' && typeof block.thinking === 'string' && typeof block.signature === 'string')
    return block.signature === ''
      ? undefined
      : { type: 'thinking', thinking: block.thinking, signature: block.signature };
  if (block.type === 'redacted_thinking' && typeof block.data === 'string' && block.data !== '')
    return { type: 'redacted_thinking', data: block.data };
  return undefined;
}

/** The signed thinking blocks of an Anthropic answer's content, in order. */
export function signedThinkingBlocks(blocks: ReadonlyArray<Record<string, unknown>>): IrSignedThinking[] {
  return blocks.flatMap((block) => signedThinkingOf(block) ?? []);
}
