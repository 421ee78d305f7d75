import type { ApiKeyCreate } from '../../../../shared/gateway-api.js';

/** The issue-key form as typed: strings, because inputs are strings. */
export interface IssueKeyForm {
  readonly name: string;
  readonly user: string;
  readonly team: string;
  readonly scopes: readonly string[];
  /** Collections for `rag:<collection>` scopes, comma separated. */
  readonly ragCollections: string;
  /** Empty: every allowed model. */
  readonly models: readonly string[];
  readonly rpm: string;
  readonly tpm: string;
  readonly userTpm: string;
  readonly userTpd: string;
  readonly teamTpm: string;
  readonly teamTpd: string;
  /** Days until expiry; empty: never. */
  readonly expiresInDays: string;
}

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
  userTpm: '',
  userTpd: '',
  teamTpm: '',
  teamTpd: '',
  expiresInDays: '',
};

const positive = (value: string): number | undefined => {
  const number = Number(value);
  return value.trim() && Number.isInteger(number) && number > 0 ? number : undefined;
};

/** Field-level problems, keyed by form field. */
export function validateForm(form: IssueKeyForm): Partial<Record<keyof IssueKeyForm, string>> {
  const errors: Partial<Record<keyof IssueKeyForm, string>> = {};
  // A credential is never made by a stray Enter: it needs a name saying what it is for.
  if (form.name.trim() === '') errors.name = 'Name is required: say what the key is for, e.g. ci-pipeline.';
  for (const field of ['rpm', 'tpm', 'userTpm', 'userTpd', 'teamTpm', 'teamTpd', 'expiresInDays'] as const) {
    if (form[field].trim() && positive(form[field]) === undefined) errors[field] = 'A whole number above 0, or empty.';
  }
  const rag = form.ragCollections
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean);
  if (rag.some((collection) => !/^(\*|[A-Za-z0-9._/-]+)$/.test(collection)))
    errors.ragCollections = 'Collection names use letters, digits, ".", "_", "/" and "-".';
  if (form.scopes.length === 0 && rag.length === 0) errors.scopes = 'Pick at least one scope.';
  return errors;
}

/** The request body for a valid form; empty fields are left out (server defaults apply). */
export function toRequest(form: IssueKeyForm): ApiKeyCreate {
  const rag = form.ragCollections
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean)
    .map((collection) => `rag:${collection}`);
  const days = positive(form.expiresInDays);
  return {
    name: form.name.trim() || undefined,
    user: form.user.trim() || undefined,
    team: form.team.trim() || undefined,
    scopes: [...form.scopes, ...rag],
    models: form.models.length ? [...form.models] : undefined,
    rpm_limit: positive(form.rpm),
    tpm_limit: positive(form.tpm),
    user_tpm_budget: positive(form.userTpm),
    user_tpd_budget: positive(form.userTpd),
    team_tpm_budget: positive(form.teamTpm),
    team_tpd_budget: positive(form.teamTpd),
    expires_in_seconds: days ? days * 24 * 3600 : undefined,
  };
}
