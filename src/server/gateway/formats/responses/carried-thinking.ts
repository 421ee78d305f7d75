import type { IrSignedThinking } from '../ir.js';
import { signedThinkingOf } from '../messages/signed-thinking.js';
import { isObject, TranslationError } from '../translation-error.js';
import type { ResponsesBody } from './responses-schema.js';

/**
 * A Claude model's signed thinking carried in a Responses `reasoning` item's `encrypted_content`, the
 * field OpenAI's reasoning models carry their own reasoning in for the client to send back: Anthropic
 * wants the signed thinking that led to a tool call sent back with the call, or the loop's later turns
 * go without thinking. The value is the gateway's own, opaque to the client: the tag, then the blocks
 * (thinking text and signature, or redacted data) as base64url JSON. Anthropic checks each signature,
 * so nothing here needs to be secret or signed again. OpenAI's own encrypted content lacks the tag and
 * is never sent to Claude.
 */

/** What leads every `encrypted_content` the gateway writes; OpenAI's (Fernet tokens, `gAAAA…`) never start so. */
const TAG = 'gatehouse.thinking.v1.';

/** The blocks as an `encrypted_content` value. */
export function carriedThinking(blocks: readonly IrSignedThinking[]): string {
  return TAG + Buffer.from(JSON.stringify(blocks)).toString('base64url');
}

/** Whether `value` is an `encrypted_content` the gateway wrote. */
export function isCarriedThinking(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(TAG);
}

/** Whether a reasoning item carries the gateway's thinking (no provider's Responses API takes it). */
export function carriesThinking(item: Readonly<Record<string, unknown>>): boolean {
  return item.type === 'reasoning' && isCarriedThinking(item.encrypted_content);
}

/**
 * The signed blocks of a reasoning item sent back, when it carries the gateway's thinking; none for
 * one without it or with another API's (OpenAI's own reasoning, which no Claude model reads). A value
 * with the tag that does not decode to signed blocks is refused naming `path`, as OpenAI refuses
 * encrypted content it cannot read: sent on without it, Anthropic would refuse the turn's tool call.
 */
export function thinkingCarriedBy(item: Readonly<Record<string, unknown>>, path: string): IrSignedThinking[] {
  const value = item.encrypted_content;
  if (!isCarriedThinking(value)) return [];
  const blocks = decoded(value.slice(TAG.length));
  const signed = blocks?.map((block) => (isObject(block) ? signedThinkingOf(block) : undefined));
  if (signed === undefined || signed.length === 0 || signed.some((block) => block === undefined))
    throw TranslationError.at(
      `${path}.encrypted_content`,
      'is not the encrypted content this gateway returned; send the reasoning item back as it was answered',
    );
  return signed as IrSignedThinking[];
}

function decoded(text: string): unknown[] | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    return Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether an answer's reasoning items carry the thinking: asked for with `include:
 * ["reasoning.encrypted_content"]`, as OpenAI returns it, or kept (`store: true`), so that
 * `previous_response_id` sends it back (the kept response is the answer as the client got it).
 */
export function answerCarriesThinking(request: ResponsesBody): boolean {
  const include = request.include;
  return request.store === true || (Array.isArray(include) && include.includes('reasoning.encrypted_content'));
}
