import type { IrRequest } from '../ir.js';

/**
 * Extended thinking asked for by an OpenAI-format client (chat's `reasoning_effort` or `thinking`,
 * Responses' `reasoning.effort`), as a Messages request's `thinking`, kept within what Anthropic
 * accepts with thinking on (the limits it knows of: the budget below max_tokens, the sampling it refuses).
 * The rules are tabled in docs/gateway-translation.md ("Extended thinking from OpenAI formats").
 */

type JsonObject = Record<string, unknown>;

/** Anthropic's smallest `budget_tokens`. */
export const MIN_THINKING_BUDGET = 1024;

/**
 * Budgets per effort: LiteLLM's (low 1024, medium 2048, high 4096), doubled for each effort above
 * high. `none` and `minimal` ask for no thinking: Anthropic's least budget is more than minimal.
 */
export const EFFORT_BUDGETS: Readonly<Record<string, number | undefined>> = {
  none: undefined,
  minimal: undefined,
  low: 1024,
  medium: 2048,
  high: 4096,
  xhigh: 8192,
  max: 16384,
};

/** The lowest `top_p` Anthropic takes with thinking on. */
const MIN_TOP_P = 0.95;

/**
 * Turns thinking on in `body` (built by messagesRequestFromIr, `max_tokens` the answer's limit) when
 * the request asked for it, unless the turn cannot have it:
 * - a forced tool choice (`any`, `tool`, JSON answers included) is refused with thinking: the tool
 *   call is what the client needs, so the turn goes without thinking;
 * - the last assistant turn holds a tool call but no thinking block ahead of it: Anthropic wants the
 *   signed thinking that led to the call back, which OpenAI formats do not carry, so a tool loop's
 *   later turns go without thinking (as LiteLLM does).
 * With thinking on, `max_tokens` becomes the budget plus the answer's limit (the budget must be below
 * it, and the answer keeps the room it had), and sampling Anthropic refuses with thinking is left
 * out: `temperature` other than 1, `top_k`, `top_p` below 0.95 (agents send these always).
 * Under a model's `per_model_max_tokens` (ir.outputCap) the cap bounds the whole output, as thinking
 * is billed as output: the budget is at most half the cap, and `max_tokens` at most the cap; a cap
 * that leaves less than Anthropic's least budget leaves the turn without thinking.
 */
export function applyThinking(body: JsonObject, ir: IrRequest): void {
  const asked =
    ir.thinkingBudget ?? (ir.reasoningEffort === undefined ? undefined : EFFORT_BUDGETS[ir.reasoningEffort]);
  if (asked === undefined) return;
  const budget = ir.outputCap === undefined ? asked : Math.min(asked, Math.floor(ir.outputCap / 2));
  if (budget < MIN_THINKING_BUDGET) return;
  const choice = body.tool_choice as JsonObject | undefined;
  if (choice?.type === 'any' || choice?.type === 'tool') return;
  if (callsWithoutThinking(body.messages as JsonObject[])) return;
  body.thinking = { type: 'enabled', budget_tokens: budget };
  const total = (body.max_tokens as number) + budget;
  body.max_tokens = ir.outputCap === undefined ? total : Math.min(total, ir.outputCap);
  if (body.temperature !== undefined && body.temperature !== 1) delete body.temperature;
  delete body.top_k;
  if (typeof body.top_p === 'number' && body.top_p < MIN_TOP_P) delete body.top_p;
}

/** Whether the last assistant turn calls a tool without a thinking block before it. */
function callsWithoutThinking(messages: readonly JsonObject[]): boolean {
  const last = messages.findLast((message) => message.role === 'assistant');
  if (last === undefined || !Array.isArray(last.content)) return false;
  const blocks = last.content as JsonObject[];
  const leading = blocks[0]?.type;
  // Signed thinking Anthropic gave back encrypted (`redacted_thinking`) is thinking too.
  return blocks.some((block) => block.type === 'tool_use') && leading !== 'thinking' && leading !== 'redacted_thinking';
}
