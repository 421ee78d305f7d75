import { apiKeyUpdateSchema, type ApiKeyRecord, type ApiKeyUpdate } from '../../../../shared/gateway-api.js';
import { issuesByField, limitsBody, limitText, type LimitField } from './limits-form.js';

type KeyLimitBody =
  'rpm_limit' | 'tpm_limit' | 'user_tpm_budget' | 'user_tpd_budget' | 'team_tpm_budget' | 'team_tpd_budget';

/** The key's limit fields in the edit form, and what each fills in `PATCH /internal/api-keys/:id`. */
export const KEY_LIMIT_FIELDS = {
  rpm: { body: 'rpm_limit', kind: 'count' },
  tpm: { body: 'tpm_limit', kind: 'count' },
  userTpm: { body: 'user_tpm_budget', kind: 'count' },
  userTpd: { body: 'user_tpd_budget', kind: 'count' },
  teamTpm: { body: 'team_tpm_budget', kind: 'count' },
  teamTpd: { body: 'team_tpd_budget', kind: 'count' },
} as const satisfies Record<string, LimitField<KeyLimitBody>>;

/** The edit-limits form as typed (empty: no limit). */
export type KeyLimitsForm = Readonly<Record<keyof typeof KEY_LIMIT_FIELDS, string>>;

/** A key's stored limits, as the form starts. */
export function keyLimitsForm(key: ApiKeyRecord): KeyLimitsForm {
  return {
    rpm: limitText(key.rpm_limit),
    tpm: limitText(key.tpm_limit),
    userTpm: limitText(key.user_tpm_budget),
    userTpd: limitText(key.user_tpd_budget),
    teamTpm: limitText(key.team_tpm_budget),
    teamTpd: limitText(key.team_tpd_budget),
  };
}

const FORM_FIELD_OF = Object.fromEntries(
  Object.entries(KEY_LIMIT_FIELDS).map(([form, field]) => [field.body, form as keyof KeyLimitsForm]),
);

/**
 * The PATCH body with only the changed limits (emptied ones as `null`: cleared), checked with the
 * shared schema; or the problems per field.
 */
export function toKeyLimitsUpdate(
  form: KeyLimitsForm,
  key: ApiKeyRecord,
): { readonly body?: ApiKeyUpdate; readonly errors: Partial<Record<keyof KeyLimitsForm, string>> } {
  const { body, errors } = limitsBody(form, KEY_LIMIT_FIELDS, key);
  if (Object.keys(errors).length) return { errors };
  const parsed = apiKeyUpdateSchema.safeParse(body);
  if (!parsed.success) return { errors: issuesByField(parsed.error, FORM_FIELD_OF, 'rpm') };
  return { body: parsed.data, errors: {} };
}
