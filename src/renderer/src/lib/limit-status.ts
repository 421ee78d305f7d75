import type { LimitStatus } from '../../../shared/principals-api.js';
import { assertNever } from '../../../shared/assert-never.js';
import { formatCompact, formatCost } from './format.js';
import { LIMIT_WORDS, limitWordOf, type LimitWord } from './limit-words.js';

/** What a limit counts, and over what window. */
interface LimitKind {
  readonly unit: 'requests' | 'tokens' | 'usd';
  /** Token buckets refill continuously; budgets end with their UTC minute, day or month. */
  readonly span: 'bucket' | 'in_flight' | 'minute' | 'day' | 'month';
}

function kindOf(word: LimitWord): LimitKind {
  switch (word) {
    case 'requests':
      return { unit: 'requests', span: 'bucket' };
    case 'tokens':
      return { unit: 'tokens', span: 'bucket' };
    case 'tokenBudgetMinute':
      return { unit: 'tokens', span: 'minute' };
    case 'tokenBudgetDay':
      return { unit: 'tokens', span: 'day' };
    case 'spendBudgetDay':
      return { unit: 'usd', span: 'day' };
    case 'spendBudgetMonth':
      return { unit: 'usd', span: 'month' };
    case 'parallelRequests':
      return { unit: 'requests', span: 'in_flight' };
    default:
      return assertNever(word);
  }
}

/** A limit's name cut to what a narrow meter has room for, read after the owner: "team $/day". */
const SHORT_WORDS: Readonly<Record<LimitWord, string>> = {
  requests: 'requests/min',
  tokens: 'tokens/min',
  tokenBudgetMinute: 'token budget/min',
  tokenBudgetDay: 'tokens/day',
  spendBudgetDay: '$/day',
  spendBudgetMonth: '$/month',
  parallelRequests: 'in flight',
};

/** How full a limit is, for its colour. */
export type LimitLevel = 'ok' | 'near' | 'full';

/** Share of a limit used from which a meter warns. */
export const NEAR_SHARE = 0.8;

/** A limit's status laid out for a meter. */
export interface LimitMeterView {
  /** Whose limit: "key", "user", "team", "model". */
  readonly owner: string;
  /** The owner named: "key", "user alice", "team platform". */
  readonly ownerName: string;
  /** The limit's name, as the forms label it, in lower case: "requests per minute". */
  readonly what: string;
  /** The name cut short, so that a day's and a month's budget differ in a narrow meter: "$/day". */
  readonly short: string;
  /** "3 / 10". */
  readonly amount: string;
  /** 0..1 of the limit used. */
  readonly share: number;
  readonly level: LimitLevel;
  /** "All 10 available again in 12 s", "Resets in 3 h 5 min (end of the UTC day)". */
  readonly reset: string;
  /**
   * Set when the gateway says this budget refuses requests although it is not used up: what is left is
   * below what one request needs. "206 left, below the 431 the last refused request needed".
   */
  readonly refusing?: string;
}

function ownerOf(subject: string): { readonly owner: string; readonly ownerName: string } {
  const colon = subject.indexOf(':');
  if (colon < 0) return { owner: subject, ownerName: subject };
  const kind = subject.slice(0, colon);
  return { owner: kind, ownerName: kind === 'key' ? 'key' : `${kind} ${subject.slice(colon + 1)}` };
}

/** 45 s, 12 min, 3 h 5 min, 12 d 4 h (a month's budget: minutes would be noise). */
export function formatDuration(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours >= 24) {
    const days = Math.floor(hours / 24);
    return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
  }
  const rest = minutes % 60;
  return rest ? `${hours} h ${rest} min` : `${hours} h`;
}

function amountOf(value: number, unit: LimitKind['unit']): string {
  return unit === 'usd' ? formatCost(value) : formatCompact(value);
}

/** Lays out where a limit stands: who it belongs to, used out of allowed, how full, when it frees up. */
export function limitMeterView(status: LimitStatus): LimitMeterView {
  const word = limitWordOf(status.limit_type);
  const kind = kindOf(word);
  const share = status.limit > 0 ? Math.min(1, Math.max(0, status.used / status.limit)) : 1;
  const level: LimitLevel = status.remaining <= 0 || share >= 1 ? 'full' : share >= NEAR_SHARE ? 'near' : 'ok';
  // A bucket refills: say how much is free and when all of it is, never a bare "Full" (which reads
  // as "used up" next to a meter whose colour says the opposite).
  const allowed = amountOf(status.limit, kind.unit);
  const reset =
    kind.span === 'in_flight'
      ? `${amountOf(Math.max(0, status.limit - status.used), kind.unit)} more may start now`
      : kind.span === 'bucket'
        ? status.used <= 0
          ? `None used: all ${allowed} available`
          : `All ${allowed} available again in ${formatDuration(status.reset_ms)}`
        : `Resets in ${formatDuration(status.reset_ms)} (end of the UTC ${kind.span})`;
  return {
    ...ownerOf(status.subject),
    what: LIMIT_WORDS[word].toLowerCase(),
    short: SHORT_WORDS[word],
    amount: `${amountOf(status.used, kind.unit)} / ${amountOf(status.limit, kind.unit)}`,
    share,
    level,
    reset,
    refusing: refusingWords(status, kind.unit),
  };
}

/** Why a budget with room left refuses requests, from what the gateway reports (see `refusing`). */
function refusingWords(status: LimitStatus, unit: LimitKind['unit']): string | undefined {
  const refusing = status.refusing;
  if (refusing === undefined) return undefined;
  const left = `${amountOf(status.remaining, unit)} left`;
  const needed = amountOf(refusing.needed, unit);
  switch (refusing.basis) {
    case 'smallest_request':
      return `${left}, below one request's estimate (${needed} without max_tokens)`;
    case 'last_refusal':
      return `${left}, below the ${needed} the last refused request needed`;
    default:
      return assertNever(refusing.basis);
  }
}

/**
 * The first budget (of a minute, day or month) used up, laid out as its meter: while it lasts, every
 * request it counts is refused until its window ends. Buckets, which refill as they go, and the cap on
 * requests in flight are not budgets.
 */
export function spentBudget(limits: readonly LimitStatus[]): LimitMeterView | undefined {
  for (const status of limits) {
    const span = kindOf(limitWordOf(status.limit_type)).span;
    if (span === 'bucket' || span === 'in_flight') continue;
    const view = limitMeterView(status);
    if (view.level === 'full') return view;
  }
  return undefined;
}

/**
 * The first budget that is not used up but refuses requests anyway, laid out as its meter: what is
 * left is below one request's estimate, or below what the last request it refused needed (a smaller
 * max_tokens may still pass).
 */
export function refusingBudget(limits: readonly LimitStatus[]): LimitMeterView | undefined {
  for (const status of limits) {
    if (status.refusing === undefined) continue;
    const view = limitMeterView(status);
    if (view.level !== 'full') return view;
  }
  return undefined;
}
