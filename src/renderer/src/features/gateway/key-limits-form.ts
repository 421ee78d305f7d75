import { apiKeyUpdateSchema, type ApiKeyRecord, type ApiKeyUpdate } from '../../../../shared/gateway-api.js';
import { MAX_PARALLEL_REQUESTS } from '../../../../shared/principals-api.js';
import { parseForm } from '../../lib/form-issues.js';
import { limitLabel } from '../../lib/limit-words.js';
import { limitFieldRefs, limitsBody, limitText, type LimitField } from './limits-form.js';

type KeyLimitBody =
  | 'rpm_limit'
  | 'tpm_limit'
  | 'max_parallel_requests'
  | 'usd_daily_budget'
  | 'usd_monthly_budget'
  | 'user_tpm_budget'
  | 'user_tpd_budget'
  | 'team_tpm_budget'
  | 'team_tpd_budget';

/** The key's limit fields in the edit form, and what each fills in `PATCH /internal/api-keys/:id`. */
export const KEY_LIMIT_FIELDS = {
  rpm: { body: 'rpm_limit', kind: 'count', label: limitLabel('requests') },
  tpm: { body: 'tpm_limit', kind: 'count', label: limitLabel('tokens') },
  parallel: {
    body: 'max_parallel_requests',
    kind: 'count',
    max: MAX_PARALLEL_REQUESTS,
    label: limitLabel('parallelRequests'),
  },
  usdDaily: { body: 'usd_daily_budget', kind: 'usd', label: `${limitLabel('spendBudgetDay')} (USD)` },
  usdMonthly: { body: 'usd_monthly_budget', kind: 'usd', label: `${limitLabel('spendBudgetMonth')} (USD)` },
  userTpm: { body: 'user_tpm_budget', kind: 'count', label: limitLabel('tokenBudgetMinute', 'user') },
  userTpd: { body: 'user_tpd_budget', kind: 'count', label: limitLabel('tokenBudgetDay', 'user') },
  teamTpm: { body: 'team_tpm_budget', kind: 'count', label: limitLabel('tokenBudgetMinute', 'team') },
  teamTpd: { body: 'team_tpd_budget', kind: 'count', label: limitLabel('tokenBudgetDay', 'team') },
} as const satisfies Record<string, LimitField<KeyLimitBody>>;

/** The edit-limits form as typed (empty: no limit). */
export type KeyLimitsForm = Readonly<Record<keyof typeof KEY_LIMIT_FIELDS, string>>;

/** A key's stored limits, as the form starts. */
export function keyLimitsForm(key: ApiKeyRecord): KeyLimitsForm {
  return {
    rpm: limitText(key.rpm_limit),
    tpm: limitText(key.tpm_limit),
    parallel: limitText(key.max_parallel_requests),
    usdDaily: limitText(key.usd_daily_budget),
    usdMonthly: limitText(key.usd_monthly_budget),
    userTpm: limitText(key.user_tpm_budget),
    userTpd: limitText(key.user_tpd_budget),
    teamTpm: limitText(key.team_tpm_budget),
    teamTpd: limitText(key.team_tpd_budget),
  };
}

const FIELD_REFS = limitFieldRefs(KEY_LIMIT_FIELDS);

/**
 * The PATCH body with only the changed limits (emptied ones as `null`: cleared), checked with the
 * shared schema; or the problems per field.
 */
export function toKeyLimitsUpdate(
  form: KeyLimitsForm,
  key: ApiKeyRecord,
): { readonly body?: ApiKeyUpdate; readonly errors: Partial<Record<keyof KeyLimitsForm, string>> } {
  const { body, errors } = limitsBody(form, KEY_LIMIT_FIELDS, key);
  const parsed = parseForm(apiKeyUpdateSchema, body, FIELD_REFS, FIELD_REFS.rpm_limit!, errors);
  return parsed.data ? { body: parsed.data, errors: {} } : { errors: parsed.errors };
}
