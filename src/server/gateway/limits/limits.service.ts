import type { LimitStatus } from '../../../shared/principals-api.js';
import type { LimitsConfig } from '../../config/limits-schema.js';
import type { PriceTable, TokenCounts } from '../accounting/pricing.js';
import type { ApiKeyRow } from '../keys/keys.repository.js';
import type { GatewayMetrics } from '../metrics/gateway-metrics.js';
import type { RequestContext } from '../pipeline/request-context.js';
import type { TeamRow, UserRow } from '../principals/principals.repository.js';
import type { PrincipalsService } from '../principals/principals.service.js';
import { rateLimitHeaders } from './limit-headers.js';
import {
  budgetOwners,
  limitSubject,
  planLimits,
  planModelLimits,
  planTeamLimits,
  planUserLimits,
  type LimitCheck,
  type LimitSubject,
} from './limit-plan.js';
import type { LimitCost, Limiter, Reservation } from './limiter.js';
import { countTextTokens } from '../formats/tokenizer.js';
import { countPromptTokens } from './prompt-tokens.js';
import { ParallelRequests, parallelRefusal, type ParallelCap } from './parallel-requests.js';
import { refusal } from './refusal.js';
import { withThinkingBudget } from './thinking-reservation.js';

/** No one's budgets to count in: every request's path when no budget is set anywhere (nothing allocated). */
const NO_OWNERS: readonly LimitSubject[] = [];

const NOTHING: LimitCost = { tokens: 0, usd: 0 };

/** The least prompt a request can send: one message (its framing) of one token. */
const SMALLEST_PROMPT_TOKENS = 4;

/** The output tokens a request may generate, as it states them (the model's cap was already applied). */
function statedOutput(ctx: RequestContext): number | undefined {
  const body = ctx.body as {
    max_tokens?: number | null;
    max_completion_tokens?: number | null;
    max_output_tokens?: number | null;
    n?: number | null;
  };
  switch (ctx.endpoint) {
    case 'chat': {
      // Each of the `n` choices may generate up to the maximum.
      const max = body.max_completion_tokens ?? body.max_tokens ?? undefined;
      return max === undefined ? undefined : max * (body.n ?? 1);
    }
    case 'messages':
      return body.max_tokens ?? undefined;
    case 'responses':
      return body.max_output_tokens ?? undefined;
    default:
      return 0;
  }
}

/** The model settings in force that the status view's estimate of the least request reads. */
export interface ModelCaps {
  /** Every model the gateway serves (`llm.allowed_models`): those a key without its own list may call. */
  allowedModels(): readonly string[];
  /** The model's `per_model_max_tokens`, if set. */
  maxTokensCap(model: string): number | undefined;
}

const NO_MODEL_CAPS: ModelCaps = { allowedModels: () => [], maxTokensCap: () => undefined };

/**
 * Rate limits and budgets: the limits stage of the pipeline (reserve before the upstream call),
 * settlement when a request finishes, and the status the admin views show.
 */
export class LimitsService {
  private readonly parallel: ParallelRequests;

  constructor(
    private readonly limiter: Limiter,
    private readonly principals: PrincipalsService,
    private readonly config: LimitsConfig,
    private readonly prices: PriceTable,
    private readonly metrics: GatewayMetrics,
    /** The upstream models that may serve a public model (the deployment is chosen after this stage). */
    private readonly upstreamModels: (model: string) => readonly string[],
    private readonly models: ModelCaps = NO_MODEL_CAPS,
  ) {
    this.parallel = new ParallelRequests(config, principals);
  }

  /**
   * The most the tokens may cost: priced by the public name, or by the dearest upstream model that may
   * serve it (prices may be set by either name, and the route is not chosen yet).
   */
  private price(model: string, tokens: TokenCounts): number {
    let most = this.prices.cost(model, null, tokens);
    for (const upstream of this.upstreamModels(model)) most = Math.max(most, this.prices.cost(null, upstream, tokens));
    return most;
  }

  /**
   * The limits stage: reserves the request's cost (one request, its prompt tokens counted by the
   * tokenizer plus the output it may generate, and their price) from every limit it must pass, or
   * refuses it with 429 naming the limit and when to retry. Synchronous from check to take: no
   * concurrent request can slip between them.
   */
  admit(ctx: RequestContext): undefined {
    const principal = ctx.principal;
    // A caller's own provider key (allow_passthrough_keys) is not the gateway's to limit, and its
    // usage row says so: limits rebuilt from the usage table at start leave it out as this process does.
    if (principal?.kind !== 'key') return undefined;
    const caps = this.parallel.enabled ? this.parallel.capsOf(principal.key.row) : undefined;
    const full = caps === undefined ? undefined : this.parallel.full(caps);
    if (full !== undefined) {
      this.metrics.rateLimitHit('parallel_requests');
      throw parallelRefusal(full);
    }
    const checks = planLimits(principal.key.row, ctx.model, this.principals, this.config);
    // A request with no limits of its own still counts in its user's and team's budgets where one of
    // their other keys is checked against them (a key's `team_tpd_budget`); it reserves nothing and
    // settles what it used.
    const owners = checks.length > 0 || this.limiter.holdsBudgets ? budgetOwners(principal.key.row) : NO_OWNERS;
    if (checks.length === 0 && !this.limiter.tracks(owners)) {
      this.admitted(ctx, caps);
      return undefined;
    }
    const cost = checks.some((check) => check.measure !== 'requests') ? this.costOf(ctx) : NOTHING;
    const admission = this.limiter.reserve(checks, cost, owners);
    const anthropic = ctx.endpoint === 'messages' || ctx.endpoint === 'count_tokens';
    if (!admission.ok) {
      this.metrics.rateLimitHit(admission.check.type);
      const reservesOutput = ctx.endpoint !== 'embeddings' && ctx.endpoint !== 'count_tokens';
      // The refusal says where the limits stand too, as OpenAI's and Anthropic's 429s do.
      const state = rateLimitHeaders(checks, this.limiter.status(checks), anthropic, Date.now());
      const input = ctx.promptTokens?.tokens ?? 0;
      const request = { used: admission.used, input, output: cost.tokens - input };
      throw refusal(admission.check, admission.needed, admission.waitMs, reservesOutput, state, request);
    }
    this.admitted(ctx, caps);
    ctx.reservation = admission.reservation;
    ctx.replyHeaders = rateLimitHeaders(checks, this.limiter.status(checks), anthropic, admission.reservation.at);
    return undefined;
  }

  /** Marks a request admitted, holding a slot under each cap on requests in flight until it finishes. */
  private admitted(ctx: RequestContext, caps: readonly ParallelCap[] | undefined): void {
    ctx.admitted = true;
    if (caps !== undefined && caps.length > 0 && ctx.parallelSlots === undefined)
      ctx.parallelSlots = this.parallel.take(caps);
  }

  /** Gives back a finished request's slots under the caps on requests in flight, once. */
  release(ctx: RequestContext): void {
    const slots = ctx.parallelSlots;
    if (slots === undefined) return;
    ctx.parallelSlots = undefined;
    this.parallel.release(slots);
  }

  /**
   * A request's prompt grew after it was admitted (the RAG stage put retrieved context into it): its
   * reservation takes the added text's tokens and their price too. Only where the limits stage counted
   * the prompt (some token limit or budget applies); otherwise settlement counts what was used.
   */
  grow(ctx: RequestContext, text: string): void {
    const reservation = ctx.reservation;
    const prompt = ctx.promptTokens;
    if (reservation === undefined || prompt === undefined) return;
    const tokens = countTextTokens(text);
    const usd = this.price(ctx.model ?? '', { promptTokens: tokens, completionTokens: 0 });
    ctx.reservation = this.limiter.extend(reservation, { tokens, usd });
    ctx.promptTokens = { ...prompt, tokens: prompt.tokens + tokens };
  }

  /**
   * Settles a finished request's reservation with what it really used (tokens, and spend where priced).
   * `recorded`: its usage row is already written (embeddings commit it before the answer).
   */
  settle(reservation: Reservation, tokens: number, usd: number, recorded = false): void {
    this.limiter.settle(reservation, { tokens, usd }, recorded);
  }

  /** Where every limit of a key stands (its user's and team's included; models' are shared and shown apart). */
  keyStatus(key: ApiKeyRow): LimitStatus[] {
    const smallest = this.smallestRequest(key.allowedModels);
    const status = this.limiter.status(planLimits(key, undefined, this.principals, this.config), smallest);
    if (this.parallel.enabled) status.push(...this.parallel.status(this.parallel.capsOf(key)));
    return status;
  }

  /** Where a user's own limits stand (its requests in flight under its cap included). */
  userStatus(user: UserRow): LimitStatus[] {
    const status = this.limiter.status(planUserLimits(user, this.config), this.smallestRequest(null));
    if (this.parallel.enabled) status.push(...this.parallel.status(this.parallel.capOf('user', user)));
    return status;
  }

  /** Where a model's shared limits stand (none when the configuration sets none). */
  modelStatus(model: string): LimitStatus[] {
    return this.limiter.status(planModelLimits(model, this.config));
  }

  /** Where a team's own limits stand (its requests in flight under its cap included). */
  teamStatus(team: TeamRow): LimitStatus[] {
    const status = this.limiter.status(planTeamLimits(team, this.config), this.smallestRequest(null));
    if (this.parallel.enabled) status.push(...this.parallel.status(this.parallel.capOf('team', team)));
    return status;
  }

  /** Forgets the limits state of a deleted user or team (see Limiter.forget). */
  forget(kind: 'user' | 'team', id: string): void {
    this.limiter.forget(limitSubject(kind, id));
  }

  /** The checks a key and model must pass (for tests and views). */
  plan(key: ApiKeyRow, model: string | undefined): LimitCheck[] {
    return planLimits(key, model, this.principals, this.config);
  }

  /**
   * What the least request without `max_tokens` reserves among `models` (a key's list, else every
   * model the gateway serves): a minimal prompt and the output reservation, or the model's
   * `per_model_max_tokens`, which becomes such a request's `max_tokens`. Its dollars at the cheapest
   * model, known only when every one of them has a price (an unpriced one may be called for nothing).
   */
  private smallestRequest(models: readonly string[] | null): { tokens: number; usd?: number } {
    const output = this.config.output_reservation_tokens;
    const candidates = models?.length ? models : this.models.allowedModels();
    if (candidates.length === 0) return { tokens: SMALLEST_PROMPT_TOKENS + output };
    let tokens = Infinity;
    let usd: number | undefined = Infinity;
    for (const model of candidates) {
      const reserved = this.models.maxTokensCap(model) ?? output;
      tokens = Math.min(tokens, SMALLEST_PROMPT_TOKENS + reserved);
      const price = this.price(model, { promptTokens: SMALLEST_PROMPT_TOKENS, completionTokens: reserved });
      usd = usd === undefined || price <= 0 ? undefined : Math.min(usd, price);
    }
    return usd === undefined ? { tokens } : { tokens, usd };
  }

  private costOf(ctx: RequestContext): LimitCost {
    const model = ctx.model ?? '';
    const prompt = countPromptTokens(ctx.endpoint, ctx.body, model);
    ctx.promptTokens = prompt;
    const output = withThinkingBudget(
      ctx,
      model,
      statedOutput(ctx) ?? this.config.output_reservation_tokens * ((ctx.body.n as number | undefined) ?? 1),
    );
    const usd = this.price(model, { promptTokens: prompt.tokens, completionTokens: output });
    return { tokens: prompt.tokens + output, usd };
  }
}
