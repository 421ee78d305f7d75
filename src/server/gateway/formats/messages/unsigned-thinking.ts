import { UNSIGNED } from './thinking.js';

type Turn = { readonly role?: unknown; readonly content?: unknown };

/**
 * A Messages request for Anthropic without the thinking blocks the gateway wrote for another model's
 * reasoning (their signature is empty: thinking.ts). Anthropic checks the signature of every thinking
 * block it is sent, earlier turns' too, and refuses the whole request over one that does not verify
 * (`messages.1.content.0: Invalid signature in thinking block`), which is what a client that moves
 * its conversation from such a model to a Claude model would send. Leaving them out loses nothing:
 * Anthropic leaves earlier turns' thinking out of what the model reads. A turn left with no block is
 * left out too (Anthropic refuses empty content, and joins the turns of one role that then meet).
 * The body is returned as it is when it holds no such block, else a copy: the client's is never changed.
 */
export function withoutUnsignedThinking<Body extends { readonly messages?: unknown }>(body: Body): Body {
  const turns = Array.isArray(body.messages) ? (body.messages as Turn[]) : [];
  if (!turns.some(hasUnsignedThinking)) return body;
  const messages = turns.flatMap((turn) => {
    if (!hasUnsignedThinking(turn)) return [turn];
    const content = (turn.content as unknown[]).filter((block) => !isUnsignedThinking(block));
    return content.length === 0 ? [] : [{ ...turn, content }];
  });
  return { ...body, messages };
}

function hasUnsignedThinking(turn: Turn): boolean {
  return turn?.role === 'assistant' && Array.isArray(turn.content) && turn.content.some(isUnsignedThinking);
}

function isUnsignedThinking(block: unknown): boolean {
  const { type, signature } = (block ?? {}) as { type?: unknown; signature?: unknown };
  return type === 'thinking' && signature === UNSIGNED;
}
