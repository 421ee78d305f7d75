import { stopReasonToIr } from '../formats/messages/messages-response-ir.js';
import type { IrStopReason } from '../formats/ir.js';

/**
 * Why an answer stopped, in the GenAI conventions' own vocabulary (`stop`, `length`, `content_filter`,
 * `tool_call`, `error`), read from a whole answer as the client gets it. Each endpoint spells the same
 * stop its own way (chat's `tool_calls`, a Claude message's `tool_use`, a Response's `completed` with a
 * function call), and one provider answer can be served by any of them: in the endpoint's words, one
 * answer would read differently in the trace depending on which endpoint asked. A reason none of them
 * maps (a local server's own) is kept as it came.
 */
export function finishReasonsOf(body: object): string[] {
  const answer = body as {
    readonly choices?: unknown;
    readonly stop_reason?: unknown;
    readonly status?: unknown;
    readonly incomplete_details?: { readonly reason?: unknown } | null;
    readonly output?: unknown;
  };
  if (Array.isArray(answer.choices)) return chatReasons(answer.choices);
  if (typeof answer.stop_reason === 'string') return [fromIr(stopReasonToIr(answer.stop_reason))];
  if (typeof answer.status === 'string')
    return responseReasons(answer.status, answer.incomplete_details, answer.output);
  return [];
}

/** The IR's stop reasons (which every translation goes through) in the conventions' words. */
function fromIr(reason: IrStopReason): string {
  switch (reason) {
    case 'stop':
    case 'stop_sequence':
      return 'stop';
    case 'tool_calls':
      return 'tool_call';
    default:
      return reason;
  }
}

type Choice = { readonly finish_reason?: unknown; readonly message?: { readonly refusal?: unknown } | null } | null;

/** A chat completion's `finish_reason` of each choice; a refusal that ended normally is a refusal, as Messages says. */
function chatReasons(choices: readonly unknown[]): string[] {
  const reasons: string[] = [];
  for (const choice of choices as readonly Choice[]) {
    const reason = choice?.finish_reason;
    if (typeof reason !== 'string') continue;
    const refused = typeof choice?.message?.refusal === 'string' && choice.message.refusal !== '';
    if (reason === 'stop') reasons.push(refused ? 'content_filter' : 'stop');
    else if (reason === 'tool_calls' || reason === 'function_call') reasons.push('tool_call');
    else reasons.push(reason);
  }
  return reasons;
}

type OutputItem = { readonly type?: unknown; readonly content?: unknown } | null;

/** A Response's outcome: why it is incomplete, or what its completed output ends with. */
function responseReasons(
  status: string,
  incomplete: { readonly reason?: unknown } | null | undefined,
  output: unknown,
): string[] {
  if (status === 'failed') return ['error'];
  if (status === 'incomplete') {
    const reason = incomplete?.reason;
    if (reason === 'max_output_tokens') return ['length'];
    return typeof reason === 'string' ? [reason] : [];
  }
  if (status !== 'completed') return [];
  const items = Array.isArray(output) ? (output as readonly OutputItem[]) : [];
  if (items.some((item) => item?.type === 'function_call' || item?.type === 'custom_tool_call')) return ['tool_call'];
  const refused = items.some(
    (item) =>
      item?.type === 'message' &&
      Array.isArray(item.content) &&
      (item.content as readonly ({ readonly type?: unknown } | null)[]).some((part) => part?.type === 'refusal'),
  );
  return [refused ? 'content_filter' : 'stop'];
}
