import type { IrStopReason } from './ir.js';

/**
 * Tool calls the token limit cut off. When an answer stops at the limit in the middle of a call, the
 * call's arguments are JSON the model never finished: a client must not run it, and must not be
 * handed arguments that only look complete (an empty object, or the keys that happened to close).
 */

/** Whether tool arguments (a JSON object) are complete; the suffix test spares parsing every delta. */
export function isCompleteArguments(text: string): boolean {
  if (!text.trimEnd().endsWith('}')) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Whether a call of an answer that stopped for `stopReason` was cut off by the token limit. */
export function isCutOff(
  call: { readonly arguments: string; readonly cutOff?: boolean },
  stopReason: IrStopReason | undefined,
): boolean {
  return stopReason === 'length' && (call.cutOff === true || !isCompleteArguments(call.arguments));
}
