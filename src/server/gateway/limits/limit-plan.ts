import type { LimitType } from '../../../shared/principals-api.js';
import type { LimitsConfig } from '../../config/limits-schema.js';
import type { ApiKeyRow } from '../keys/keys.repository.js';
import type { TeamRow, UserRow } from '../principals/principals.repository.js';
import type { PrincipalsService } from '../principals/principals.service.js';
import type { WindowSpan } from './calendar-window.js';

/** Whose usage a limit counts: a key, a user, a team, or every caller of a model. */
export interface LimitSubject {
  readonly kind: 'key' | 'user' | 'team' | 'model';
  readonly id: string;
  /** `kind:id`, the name errors, headers and the status view use. */
  readonly name: string;
}

/** What a limit counts. */
export type LimitMeasure = 'requests' | 'tokens' | 'usd';

/** One limit that applies to a request: a token bucket, or a budget over a calendar window. */
export interface LimitCheck {
  readonly type: LimitType;
  readonly measure: LimitMeasure;
  readonly subject: LimitSubject;
  readonly limit: number;
  readonly span: 'bucket' | WindowSpan;
}

const subject = (kind: LimitSubject['kind'], id: string): LimitSubject => ({ kind, id, name: `${kind}:${id}` });

/** The smaller of the limits that are set (a key's own budget for its user can only tighten the user's). */
function tightest(...limits: ReadonlyArray<number | null | undefined>): number | undefined {
  let result: number | undefined;
  for (const limit of limits) if (limit != null && (result === undefined || limit < result)) result = limit;
  return result;
}

/** Appends a check when its limit is set. */
function add(
  checks: LimitCheck[],
  type: LimitType,
  measure: LimitMeasure,
  who: LimitSubject,
  limit: number | null | undefined,
  span: LimitCheck['span'],
): void {
  if (limit != null) checks.push({ type, measure, subject: who, limit, span });
}

/** A key's own budgets for its user and team, which can only tighten theirs. */
type KeyBudgets = Pick<ApiKeyRow, 'userTpmBudget' | 'userTpdBudget' | 'teamTpmBudget' | 'teamTpdBudget'>;

const NO_KEY_BUDGETS: KeyBudgets = {
  userTpmBudget: null,
  userTpdBudget: null,
  teamTpmBudget: null,
  teamTpdBudget: null,
};

/** A user's (or an ownerless key's) limits: rate limits only for a real user, whose keys share them. */
function userChecks(
  checks: LimitCheck[],
  who: LimitSubject,
  user: UserRow | undefined,
  key: KeyBudgets,
  config: LimitsConfig,
): void {
  const defaults = config.users;
  if (who.kind === 'user') {
    add(checks, 'requests', 'requests', who, user?.rpmLimit ?? defaults.rpm_limit, 'bucket');
    add(checks, 'tokens', 'tokens', who, user?.tpmLimit ?? defaults.tpm_limit, 'bucket');
  }
  add(
    checks,
    'user_minute',
    'tokens',
    who,
    tightest(key.userTpmBudget, user?.tpmBudget ?? defaults.tpm_budget),
    'minute',
  );
  add(checks, 'user_daily', 'tokens', who, tightest(key.userTpdBudget, user?.tpdBudget ?? defaults.tpd_budget), 'day');
  add(checks, 'user_cost_daily', 'usd', who, user?.usdDailyBudget ?? defaults.usd_daily_budget, 'day');
}

/** A team's limits, shared by every key of the team. */
function teamChecks(
  checks: LimitCheck[],
  id: string,
  team: TeamRow | undefined,
  key: KeyBudgets,
  config: LimitsConfig,
): void {
  const who = subject('team', id);
  const defaults = config.teams;
  add(checks, 'requests', 'requests', who, team?.rpmLimit ?? defaults.rpm_limit, 'bucket');
  add(checks, 'tokens', 'tokens', who, team?.tpmLimit ?? defaults.tpm_limit, 'bucket');
  add(
    checks,
    'team_minute',
    'tokens',
    who,
    tightest(key.teamTpmBudget, team?.tpmBudget ?? defaults.tpm_budget),
    'minute',
  );
  add(checks, 'team_daily', 'tokens', who, tightest(key.teamTpdBudget, team?.tpdBudget ?? defaults.tpd_budget), 'day');
  add(checks, 'team_cost_daily', 'usd', who, team?.usdDailyBudget ?? defaults.usd_daily_budget, 'day');
}

/**
 * Every limit a request with this key and model must pass, from the records and the configuration's
 * defaults: the key's, its user's and its team's rate limits, the model's shared ones, and the user's
 * and team's minute, day and cost budgets. A key without a user is its own user for budgets.
 * `model` undefined (the status view) leaves the model's limits out.
 */
export function planLimits(
  key: ApiKeyRow,
  model: string | undefined,
  principals: PrincipalsService,
  config: LimitsConfig,
): LimitCheck[] {
  const checks: LimitCheck[] = [];
  const keySubject = subject('key', key.id);
  add(checks, 'requests', 'requests', keySubject, key.rpmLimit ?? config.keys.rpm_limit, 'bucket');
  add(checks, 'tokens', 'tokens', keySubject, key.tpmLimit ?? config.keys.tpm_limit, 'bucket');
  const owner = key.ownerUser;
  const user = owner !== null ? principals.user(owner) : undefined;
  userChecks(checks, owner !== null ? subject('user', owner) : keySubject, user, key, config);
  if (key.team !== null) teamChecks(checks, key.team, principals.team(key.team), key, config);
  const modelLimits = model !== undefined ? config.models[model] : undefined;
  if (modelLimits !== undefined) {
    const modelSubject = subject('model', model!);
    add(checks, 'requests', 'requests', modelSubject, modelLimits.rpm_limit, 'bucket');
    add(checks, 'tokens', 'tokens', modelSubject, modelLimits.tpm_limit, 'bucket');
  }
  return checks;
}

/** A user's own limits (those every key of theirs shares), for the admin views. */
export function planUserLimits(user: UserRow, config: LimitsConfig): LimitCheck[] {
  const checks: LimitCheck[] = [];
  userChecks(checks, subject('user', user.id), user, NO_KEY_BUDGETS, config);
  return checks;
}

/** A team's own limits, for the admin views. */
export function planTeamLimits(team: TeamRow, config: LimitsConfig): LimitCheck[] {
  const checks: LimitCheck[] = [];
  teamChecks(checks, team.id, team, NO_KEY_BUDGETS, config);
  return checks;
}
