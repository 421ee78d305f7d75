import type { ApiKeyRecord } from '../../../shared/gateway-api.js';
import type { ApiKeyRow } from './keys.repository.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** Whether a key can be used at `now`. */
export function keyStatus(row: ApiKeyRow, now: number): ApiKeyRecord['status'] {
  if (row.revokedAt !== null) return 'revoked';
  if (row.expiresAt !== null && row.expiresAt <= now) return 'expired';
  return 'active';
}

/** A key as the admin API shows it (never the hash, let alone the secret). */
export function toKeyRecord(row: ApiKeyRow, now: number = Date.now()): ApiKeyRecord {
  return {
    id: row.id,
    name: row.name,
    key_prefix: row.keyPrefix,
    user: row.ownerUser,
    team: row.team,
    scopes: row.scopes,
    models: row.allowedModels,
    rpm_limit: row.rpmLimit,
    tpm_limit: row.tpmLimit,
    max_parallel_requests: row.maxParallelRequests,
    usd_daily_budget: row.usdDailyBudget,
    usd_monthly_budget: row.usdMonthlyBudget,
    user_tpm_budget: row.userTpmBudget,
    user_tpd_budget: row.userTpdBudget,
    team_tpm_budget: row.teamTpmBudget,
    team_tpd_budget: row.teamTpdBudget,
    metadata: row.metadata,
    allow_stateful: row.allowStateful,
    expires_at: iso(row.expiresAt),
    created_at: new Date(row.createdAt).toISOString(),
    last_used_at: iso(row.lastUsedAt),
    revoked_at: iso(row.revokedAt),
    status: keyStatus(row, now),
    issuer: row.issuer,
    subject: row.subject,
    rotated_at: iso(row.rotatedAt),
    previous_key_expires_at: iso(row.previousKeyExpiresAt),
  };
}
