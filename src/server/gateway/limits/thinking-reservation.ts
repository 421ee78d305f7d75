import { chatThinkingToIr } from '../formats/chat/chat-thinking.js';
import { EFFORT_BUDGETS, MIN_THINKING_BUDGET } from '../formats/messages/thinking-request.js';
import { isObject } from '../formats/translation-error.js';
import type { RequestContext } from '../pipeline/request-context.js';

/**
 * The output a chat or Responses request may generate once its thinking is translated for a Claude
 * model: `stated`, the answer's limit, plus the thinking budget the translation adds on top of it
 * (messages/thinking-request.ts applyThinking, whose rules this follows: under a `per_model_max_tokens`
 * cap the budget is at most half the cap and the whole at most the cap). Thinking tokens are output,
 * billed as such, so a token or dollar budget's reservation must hold them. `stated` unchanged when the
 * request asks for no thinking or no deployment of its model is Claude (an OpenAI reasoning model
 * counts its reasoning inside the answer's limit). A Messages client puts its budget inside `max_tokens`.
 */
export function withThinkingBudget(ctx: RequestContext, model: string, stated: number): number {
  const asked = askedBudget(ctx);
  if (asked === undefined) return stated;
  const registry = ctx.services.registry;
  if (!registry.deploymentsFor(model).some((deployment) => deployment.provider === 'anthropic')) return stated;
  const cap = registry.maxTokensCap(model);
  const budget = cap === undefined ? asked : Math.min(asked, Math.floor(cap / 2));
  if (budget < MIN_THINKING_BUDGET) return stated;
  return cap === undefined ? stated + budget : Math.max(stated, Math.min(stated + budget, cap));
}

/** The thinking budget a chat or Responses body asks for, as the translation reads it; none when it asks for none. */
function askedBudget(ctx: RequestContext): number | undefined {
  const body = ctx.body;
  if (ctx.endpoint === 'responses') {
    const effort = isObject(body.reasoning) ? body.reasoning.effort : undefined;
    return typeof effort === 'string' ? EFFORT_BUDGETS[effort] : undefined;
  }
  if (ctx.endpoint !== 'chat' || (body.reasoning_effort == null && body.thinking == null)) return undefined;
  try {
    const asked = chatThinkingToIr(body);
    return (
      asked.thinkingBudget ?? (asked.reasoningEffort === undefined ? undefined : EFFORT_BUDGETS[asked.reasoningEffort])
    );
  } catch {
    // Refused with a 400 naming the field once translated; nothing is generated.
    return undefined;
  }
}
