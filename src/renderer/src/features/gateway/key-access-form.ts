import { scopeSchema } from '../../../../shared/gateway-api.js';
import type { FormFieldRef } from '../../lib/form-issues.js';
import { closestName } from '../../../../shared/closest-name.js';

/** Who a key belongs to and what it may call, as the issue and edit dialogs type it (inputs are strings). */
export interface KeyAccessForm {
  readonly name: string;
  readonly user: string;
  readonly team: string;
  readonly scopes: readonly string[];
  /** Collections for `rag:<collection>` scopes, comma separated. */
  readonly ragCollections: string;
  /** Empty: every allowed model. */
  readonly models: readonly string[];
  /** Days until expiry; empty: never (on issue) or unchanged (on edit); `never` on edit: no expiry. */
  readonly expiresInDays: string;
}

/** Each field's label in the dialogs, also the subject of its messages ("User must be…"). */
export const KEY_ACCESS_LABELS = {
  name: 'Name',
  user: 'User',
  team: 'Team',
  expiresInDays: 'Expires',
  scopes: 'Scopes',
  ragCollections: 'RAG collections',
  models: 'Models',
} as const satisfies Record<keyof KeyAccessForm, string>;

/** The scopes and the RAG collections answer "Pick at least one scope" together. */
export const SCOPE_FIELDS = { scopes: ['ragCollections'], ragCollections: ['scopes'] } as const;

const ref = (field: keyof KeyAccessForm): FormFieldRef<keyof KeyAccessForm> => ({
  field,
  label: KEY_ACCESS_LABELS[field],
});

/** Where each body field of a key is held in the form, for the shared schemas' messages. */
export const KEY_ACCESS_REFS = {
  name: ref('name'),
  user: ref('user'),
  team: ref('team'),
  scopes: ref('scopes'),
  models: ref('models'),
  expires_in_seconds: ref('expiresInDays'),
  expires_at: ref('expiresInDays'),
} as const;

/** A key's scopes split as the form shows them: plain scopes, and its RAG collections as a list. */
export function scopesForm(scopes: readonly string[]): Pick<KeyAccessForm, 'scopes' | 'ragCollections'> {
  const rag = scopes.filter((scope) => scope.startsWith('rag:')).map((scope) => scope.slice('rag:'.length));
  return { scopes: scopes.filter((scope) => !scope.startsWith('rag:')), ragCollections: rag.join(', ') };
}

/**
 * The scopes the form describes (its RAG collections as `rag:<collection>`), or undefined with the
 * problem put in `errors` under the field it belongs to.
 */
export function formScopes(
  form: KeyAccessForm,
  errors: Partial<Record<keyof KeyAccessForm, string>>,
): string[] | undefined {
  const rag = form.ragCollections
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean)
    .map((collection) => `rag:${collection}`);
  if (rag.some((scope) => !scopeSchema.safeParse(scope).success)) {
    errors.ragCollections = 'Collection names use letters, digits, ".", "_", "/" and "-" (or * for all).';
    return undefined;
  }
  if (form.scopes.length === 0 && rag.length === 0) {
    errors.scopes = 'Pick at least one scope.';
    return undefined;
  }
  return [...form.scopes, ...rag];
}

/**
 * The name typed in a User or Team field when it names none of the `known` ones (trimmed); undefined
 * when it names one, is empty, or the list is still loading.
 */
export function newOwnerName(typed: string, known: readonly string[] | undefined): string | undefined {
  const name = typed.trim();
  return name === '' || known === undefined || known.includes(name) ? undefined : name;
}

/**
 * What the User or Team field says about the name typed in it: an existing one, or a new one that
 * issuing creates (with no limits) and a change refuses; with the existing name it most likely meant.
 * Empty, the field's own rule.
 */
export function ownerHint(
  kind: 'user' | 'team',
  typed: string,
  /** Undefined while the list is loading: nothing is said about the typed name until it is known. */
  known: readonly string[] | undefined,
  owners: 'created' | 'existing',
): string {
  const name = typed.trim();
  if (name === '' || known === undefined)
    return owners === 'created'
      ? `An existing ${kind} or a new one. Named for the first time: the ${kind} is created, with no limits.`
      : `An existing ${kind}: add new ones under Users & teams.`;
  if (known.includes(name)) return `${name} is an existing ${kind}.`;
  const meant = closestName(name, known);
  const guess = meant === undefined ? '' : ` Did you mean ${meant}?`;
  return owners === 'created'
    ? `${name} is a new ${kind}: it will be created with no limits.${guess}`
    : `${name} is not an existing ${kind}: a key moves only to an existing one (add new ones under Users & teams).${guess}`;
}
