import { apiKeyCreateSchema, type ApiKeyCreate } from '../../../../shared/gateway-api.js';
import { parseForm, type FormFieldRef } from '../../lib/form-issues.js';
import { formScopes, KEY_ACCESS_REFS, type KeyAccessForm } from './key-access-form.js';
import { KEY_LIMIT_FIELDS, type KeyLimitsForm } from './key-limits-form.js';
import { limitFieldRefs, limitsBody } from './limits-form.js';

/** The issue-key form as typed: strings, because inputs are strings. */
export interface IssueKeyForm extends KeyLimitsForm, KeyAccessForm {}

/** Problems per form field. */
export type IssueKeyErrors = Partial<Record<keyof IssueKeyForm, string>>;

/** A fresh form: a chat key with no limits. */
export const EMPTY_FORM: IssueKeyForm = {
  name: '',
  user: '',
  team: '',
  scopes: ['chat'],
  ragCollections: '',
  models: [],
  rpm: '',
  tpm: '',
  parallel: '',
  usdDaily: '',
  usdMonthly: '',
  userTpm: '',
  userTpd: '',
  teamTpm: '',
  teamTpd: '',
  expiresInDays: '',
};

/** Where each body field is held in the form, for the shared schema's messages. */
const FIELD_REFS: Readonly<Record<string, FormFieldRef<keyof IssueKeyForm>>> = {
  ...KEY_ACCESS_REFS,
  ...limitFieldRefs(KEY_LIMIT_FIELDS),
};

/**
 * The `POST /internal/api-keys` body the form describes, checked with the shared schema the gateway
 * uses (so a user or team id it would refuse is refused here, on its field); or every problem, per
 * field. Empty fields are left out (server defaults apply).
 */
export function toIssueKeyRequest(form: IssueKeyForm): {
  readonly body?: ApiKeyCreate;
  readonly errors: IssueKeyErrors;
} {
  const errors: IssueKeyErrors = {};
  // A credential is never made by a stray Enter: it needs a name saying what it is for.
  if (form.name.trim() === '') errors.name = 'Name is required: say what the key is for, e.g. ci-pipeline.';
  const limits = limitsBody(form, KEY_LIMIT_FIELDS);
  Object.assign(errors, limits.errors);
  const scopes = formScopes(form, errors);
  const days = Number(form.expiresInDays);
  const body = {
    name: form.name.trim() || undefined,
    user: form.user.trim() || undefined,
    team: form.team.trim() || undefined,
    // Scopes the form already found wrong are its own message; the schema would only repeat them.
    scopes,
    models: form.models.length ? [...form.models] : undefined,
    ...limits.body,
    expires_in_seconds: form.expiresInDays && days > 0 ? days * 24 * 3600 : undefined,
  };
  const parsed = parseForm(apiKeyCreateSchema, body, FIELD_REFS, FIELD_REFS.name!, errors);
  return parsed.data ? { body: parsed.data, errors: {} } : { errors: parsed.errors };
}
