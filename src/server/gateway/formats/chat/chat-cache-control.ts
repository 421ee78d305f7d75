import type { IrCacheControl, IrPart } from '../ir.js';

/**
 * Prompt-cache breakpoints of a chat completions request, as LiteLLM and OpenRouter take them for
 * Claude: `cache_control: {type: "ephemeral", ttl?}` on a content part, on a whole message (its last
 * part), and on a tool (beside `function`, or inside it). Chat models have no such field; OpenAI
 * caches by itself, so these only matter on the way to Anthropic.
 */

/** The breakpoint `value` names: `{type: "ephemeral"}` with a `ttl` of `5m` or `1h` kept; anything else is none. */
function cacheControlOf(value: unknown): IrCacheControl | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const { type, ttl } = value as { type?: unknown; ttl?: unknown };
  if (type !== 'ephemeral') return undefined;
  return ttl === '5m' || ttl === '1h' ? { type, ttl } : { type };
}

/** The breakpoint an object of the request (a message, a part, a tool) carries in its `cache_control`. */
export function ownCacheControl(item: object): IrCacheControl | undefined {
  return cacheControlOf((item as { cache_control?: unknown }).cache_control);
}

/**
 * A message's breakpoint for text joined from its parts (a system or tool message): its own, else
 * that of its last part that has one, since the joined text ends where that part did or later.
 */
export function joinedCacheControl(message: object, content: unknown): IrCacheControl | undefined {
  const own = ownCacheControl(message);
  if (own !== undefined || !Array.isArray(content)) return own;
  return content.map((part: object) => ownCacheControl(part)).findLast((mark) => mark !== undefined);
}

/** `part` with the breakpoint `mark`, or as it is without one. */
export function withCacheControl<T extends IrPart>(part: T, mark: IrCacheControl | undefined): T {
  return mark === undefined ? part : { ...part, cacheControl: mark };
}

/** The parts of a message with its own breakpoint on the last of them, unless that part has one. */
export function withMessageCacheControl(parts: IrPart[], message: object): IrPart[] {
  const mark = ownCacheControl(message);
  const last = parts.at(-1);
  if (mark === undefined || last === undefined || last.cacheControl !== undefined) return parts;
  return [...parts.slice(0, -1), withCacheControl(last, mark)];
}
