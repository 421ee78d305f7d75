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
  /**
   * Only where a key caps its user's or team's budget (`user_tpd_budget`, ...): who set the limit in
   * force (the key, when its cap is the tighter one, else the user or team), and then the user's or
   * team's own (none when undefined), so that a refusal names the setting to change.
   */
  readonly setBy?: { readonly by: LimitSubject; readonly own?: number };
}

/** The subject of a kind and id. */
export const limitSubject = (kind: LimitSubject['kind'], id: string): LimitSubject => ({
  kind,
  id,
  name: `${kind}:${id}`,
});

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

/**
 * A user's or team's token budget with a key's cap on it: the tighter of the two, and which one set it.
 * An ownerless key is its own user: its caps need no telling apart.
 */
function cappedBudget(
  checks: LimitCheck[],
  type: LimitType,
  who: LimitSubject,
  caps: PrincipalCaps,
  cap: number | null,
  own: number | null | undefined,
  span: WindowSpan,
): void {
  const limit = tightest(cap, own);
  if (limit === undefined) return;
  if (cap === null || caps.key === undefined || who.kind === 'key') {
    checks.push({ type, measure: 'tokens', subject: who, limit, span });
    return;
  }
  const byKey = own == null || cap < own;
  const setBy = byKey ? { by: caps.key, ...(own == null ? {} : { own }) } : { by: who };
  checks.push({ type, measure: 'tokens', subject: who, limit, span, setBy });
}

/** A key's caps on its user's or team's token budgets, and the key (none for the admin views of a user or team). */
interface PrincipalCaps {
  readonly key?: LimitSubject;
  readonly minute: number | null;
  readonly day: number | null;
}

/** A key's own budgets for its user and team, which can only tighten theirs. */
type KeyBudgets = Pick<ApiKeyRow, 'userTpmBudget' | 'userTpdBudget' | 'teamTpmBudget' | 'teamTpdBudget'> & {
  readonly id?: string;
};

const NO_KEY_BUDGETS: KeyBudgets = {
  userTpmBudget: null,
  userTpdBudget: null,
  teamTpmBudget: null,
  teamTpdBudget: null,
};

type PrincipalRow = Pick<
  UserRow,
  'rpmLimit' | 'tpmLimit' | 'tpmBudget' | 'tpdBudget' | 'usdDailyBudget' | 'usdMonthlyBudget'
>;

/**
 * A user's or team's limits: the record's own values, else the configuration's defaults, and the
 * key's caps on the budgets. Rate limits only for a real user or team (an ownerless key's own buckets
 * already count it).
 */
function principalChecks(
  checks: LimitCheck[],
  who: LimitSubject,
  record: PrincipalRow | undefined,
  caps: PrincipalCaps,
  defaults: LimitsConfig['users'],
  types: readonly [minute: LimitType, daily: LimitType, cost: LimitType, monthlyCost: LimitType],
): void {
  if (who.kind !== 'key') {
    add(checks, 'requests', 'requests', who, record?.rpmLimit ?? defaults.rpm_limit, 'bucket');
    add(checks, 'tokens', 'tokens', who, record?.tpmLimit ?? defaults.tpm_limit, 'bucket');
  }
  cappedBudget(checks, types[0], who, caps, caps.minute, record?.tpmBudget ?? defaults.tpm_budget, 'minute');
  cappedBudget(checks, types[1], who, caps, caps.day, record?.tpdBudget ?? defaults.tpd_budget, 'day');
  add(checks, types[2], 'usd', who, record?.usdDailyBudget ?? defaults.usd_daily_budget, 'day');
  add(checks, types[3], 'usd', who, record?.usdMonthlyBudget ?? defaults.usd_monthly_budget, 'month');
}

const keyOf = (key: KeyBudgets): LimitSubject | undefined =>
  key.id === undefined ? undefined : limitSubject('key', key.id);

const USER_TYPES = ['user_minute', 'user_daily', 'user_cost_daily', 'user_cost_monthly'] as const;
const TEAM_TYPES = ['team_minute', 'team_daily', 'team_cost_daily', 'team_cost_monthly'] as const;

/** A user's (or an ownerless key's) limits. */
function userChecks(
  checks: LimitCheck[],
  who: LimitSubject,
  user: UserRow | undefined,
  key: KeyBudgets,
  config: LimitsConfig,
): void {
  const caps = { key: keyOf(key), minute: key.userTpmBudget, day: key.userTpdBudget };
  principalChecks(checks, who, user, caps, config.users, USER_TYPES);
}

/** A team's limits, shared by every key of the team. */
function teamChecks(
  checks: LimitCheck[],
  id: string,
  team: TeamRow | undefined,
  key: KeyBudgets,
  config: LimitsConfig,
): void {
  const caps = { key: keyOf(key), minute: key.teamTpmBudget, day: key.teamTpdBudget };
  principalChecks(checks, limitSubject('team', id), team, caps, config.teams, TEAM_TYPES);
}

/**
 * Every limit a request with this key and model must pass, from the records and the configuration's
 * defaults: the key's, its user's and its team's rate limits, the model's shared ones, the key's own
 * spend budgets, and the user's and team's minute, day and cost budgets. A key without a user is its
 * own user for budgets.
 * `model` undefined (the status view) leaves the model's limits out.
 */
export function planLimits(
  key: ApiKeyRow,
  model: string | undefined,
  principals: PrincipalsService,
  config: LimitsConfig,
): LimitCheck[] {
  const checks: LimitCheck[] = [];
  const keySubject = limitSubject('key', key.id);
  add(checks, 'requests', 'requests', keySubject, key.rpmLimit ?? config.keys.rpm_limit, 'bucket');
  add(checks, 'tokens', 'tokens', keySubject, key.tpmLimit ?? config.keys.tpm_limit, 'bucket');
  add(checks, 'key_cost_daily', 'usd', keySubject, key.usdDailyBudget ?? config.keys.usd_daily_budget, 'day');
  add(checks, 'key_cost_monthly', 'usd', keySubject, key.usdMonthlyBudget ?? config.keys.usd_monthly_budget, 'month');
  const owner = key.ownerUser;
  const user = owner !== null ? principals.user(owner) : undefined;
  userChecks(checks, owner !== null ? limitSubject('user', owner) : keySubject, user, key, config);
  if (key.team !== null) teamChecks(checks, key.team, principals.team(key.team), key, config);
  if (model !== undefined) checks.push(...planModelLimits(model, config));
  return checks;
}

/** A model's own limits (`limits.models`), shared by every caller of the model. */
export function planModelLimits(model: string, config: LimitsConfig): LimitCheck[] {
  const checks: LimitCheck[] = [];
  const modelLimits = Object.hasOwn(config.models, model) ? config.models[model] : undefined;
  if (modelLimits === undefined) return checks;
  const modelSubject = limitSubject('model', model);
  add(checks, 'requests', 'requests', modelSubject, modelLimits.rpm_limit, 'bucket');
  add(checks, 'tokens', 'tokens', modelSubject, modelLimits.tpm_limit, 'bucket');
  return checks;
}

/**
 * Whose budgets a key's requests count in: the key's own, its user's (the key itself is its user when
 * it has none) and its team's.
 */
export function budgetOwners(key: ApiKeyRow): LimitSubject[] {
  const owners = [limitSubject('key', key.id)];
  if (key.ownerUser !== null) owners.push(limitSubject('user', key.ownerUser));
  if (key.team !== null) owners.push(limitSubject('team', key.team));
  return owners;
}

/** A user's own limits (those every key of theirs shares), for the admin views. */
export function planUserLimits(user: UserRow, config: LimitsConfig): LimitCheck[] {
  const checks: LimitCheck[] = [];
  userChecks(checks, limitSubject('user', user.id), user, NO_KEY_BUDGETS, config);
  return checks;
}

/** A team's own limits, for the admin views. */
export function planTeamLimits(team: TeamRow, config: LimitsConfig): LimitCheck[] {
  const checks: LimitCheck[] = [];
  teamChecks(checks, team.id, team, NO_KEY_BUDGETS, config);
  return checks;
}
