import type { TeamRow, UserRow } from './principals.repository.js';

const iso = (ms: number): string => new Date(ms).toISOString();

/** A team's own fields as the admin API names them (the counts, usage and limit status are not the record's). */
export function teamFields(team: TeamRow) {
  return {
    id: team.id,
    name: team.name,
    rpm_limit: team.rpmLimit,
    tpm_limit: team.tpmLimit,
    max_parallel_requests: team.maxParallelRequests,
    tpm_budget: team.tpmBudget,
    tpd_budget: team.tpdBudget,
    usd_daily_budget: team.usdDailyBudget,
    usd_monthly_budget: team.usdMonthlyBudget,
    metadata: team.metadata,
    created_at: iso(team.createdAt),
    updated_at: iso(team.updatedAt),
  };
}

/** A user's own fields as the admin API names them (see {@link teamFields}); the single sign-on binding is not shown. */
export function userFields(user: UserRow) {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    team: user.team,
    rpm_limit: user.rpmLimit,
    tpm_limit: user.tpmLimit,
    max_parallel_requests: user.maxParallelRequests,
    tpm_budget: user.tpmBudget,
    tpd_budget: user.tpdBudget,
    usd_daily_budget: user.usdDailyBudget,
    usd_monthly_budget: user.usdMonthlyBudget,
    metadata: user.metadata,
    created_at: iso(user.createdAt),
    updated_at: iso(user.updatedAt),
  };
}

/** The fields an update changes, with their values before and after it. */
export interface FieldChanges {
  readonly before: Record<string, unknown>;
  readonly after: Record<string, unknown>;
}

/**
 * What `update` would change in `current`: the fields it names whose value differs from the one in
 * force. Undefined when it changes none, so re-sending the values in force is no change at all.
 */
export function fieldChanges(current: Readonly<Record<string, unknown>>, update: object): FieldChanges | undefined {
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(update)) {
    if (value === undefined || sameValue(current[field], value)) continue;
    before[field] = current[field] ?? null;
    after[field] = value;
  }
  return Object.keys(after).length === 0 ? undefined : { before, after };
}

/** Field values are JSON (numbers, strings, null, metadata objects), so their text compares them. */
function sameValue(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}
