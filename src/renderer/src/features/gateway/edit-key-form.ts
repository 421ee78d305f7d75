import { apiKeyUpdateSchema, type ApiKeyRecord, type ApiKeyUpdate } from '../../../../shared/gateway-api.js';
import { parseForm } from '../../lib/form-issues.js';
import { formScopes, KEY_ACCESS_REFS, scopesForm, type KeyAccessForm } from './key-access-form.js';

/** The edit dialog's expiry choice that removes an expiry (the empty choice keeps it as it is). */
export const NO_EXPIRY = 'never';

/** A key's name, owner and access as the edit form starts: as stored, expiry unchanged. */
export function editKeyForm(key: ApiKeyRecord): KeyAccessForm {
  return {
    name: key.name ?? '',
    user: key.user ?? '',
    team: key.team ?? '',
    ...scopesForm(key.scopes),
    models: key.models ?? [],
    expiresInDays: '',
  };
}

const sameSet = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((item) => b.includes(item));

/** A text field's value as the PATCH body sends it: trimmed, and an emptied field as `null` (cleared). */
const textValue = (text: string): string | null => text.trim() || null;

/**
 * The `PATCH /internal/api-keys/:id` body with only what the form changed (an emptied name, user or
 * team as `null`: cleared; no model checked as `null`: every allowed model), checked with the shared
 * schema the gateway uses; or the problems per field. `now` dates an expiry counted in days.
 */
export function toKeyAccessUpdate(
  form: KeyAccessForm,
  key: ApiKeyRecord,
  now: Date,
): { readonly body?: ApiKeyUpdate; readonly errors: Partial<Record<keyof KeyAccessForm, string>> } {
  const errors: Partial<Record<keyof KeyAccessForm, string>> = {};
  const body: Record<string, unknown> = {};
  if (textValue(form.name) !== key.name) body.name = textValue(form.name);
  if (textValue(form.user) !== key.user) body.user = textValue(form.user);
  if (textValue(form.team) !== key.team) body.team = textValue(form.team);
  const scopes = formScopes(form, errors);
  if (scopes !== undefined && !sameSet(scopes, key.scopes)) body.scopes = scopes;
  if (!sameSet(form.models, key.models ?? [])) body.models = form.models.length ? [...form.models] : null;
  if (form.expiresInDays === NO_EXPIRY) {
    if (key.expires_at !== null) body.expires_at = null;
  } else if (form.expiresInDays !== '') {
    body.expires_at = new Date(now.getTime() + Number(form.expiresInDays) * 24 * 3600 * 1000).toISOString();
  }
  const parsed = parseForm(apiKeyUpdateSchema, body, KEY_ACCESS_REFS, KEY_ACCESS_REFS.name, errors);
  return parsed.data ? { body: parsed.data, errors: {} } : { errors: parsed.errors };
}
