import type { LimitType } from '../../../shared/principals-api.js';
import { assertNever } from '../../../shared/assert-never.js';

/**
 * What each kind of limit is called, wherever the UI names one: the key, user and team forms label
 * their fields with it (a key's budgets for its user and team with the owner in front), and the
 * meters read it in lower case after the owner ("team platform token budget per day").
 */
export const LIMIT_WORDS = {
  requests: 'Requests per minute',
  tokens: 'Tokens per minute',
  tokenBudgetMinute: 'Token budget per minute',
  tokenBudgetDay: 'Token budget per day',
  spendBudgetDay: 'Spend budget per day',
  spendBudgetMonth: 'Spend budget per month',
  parallelRequests: 'Requests in flight at once',
} as const;

/** One kind of limit as people name it. */
export type LimitWord = keyof typeof LIMIT_WORDS;

/** The name of a kind of limit the gateway reports, whoever it belongs to. */
export function limitWordOf(type: LimitType): LimitWord {
  switch (type) {
    case 'requests':
      return 'requests';
    case 'tokens':
      return 'tokens';
    case 'user_minute':
    case 'team_minute':
      return 'tokenBudgetMinute';
    case 'user_daily':
    case 'team_daily':
      return 'tokenBudgetDay';
    case 'user_cost_daily':
    case 'team_cost_daily':
    case 'key_cost_daily':
      return 'spendBudgetDay';
    case 'user_cost_monthly':
    case 'team_cost_monthly':
    case 'key_cost_monthly':
      return 'spendBudgetMonth';
    case 'parallel_requests':
      return 'parallelRequests';
    default:
      return assertNever(type);
  }
}

/** A limit's name as a form labels it, optionally for an owner other than the form's own: "Team token budget per day". */
export function limitLabel(word: LimitWord, owner?: 'user' | 'team'): string {
  const name = LIMIT_WORDS[word];
  if (!owner) return name;
  return `${owner === 'user' ? 'User' : 'Team'} ${name.charAt(0).toLowerCase()}${name.slice(1)}`;
}
