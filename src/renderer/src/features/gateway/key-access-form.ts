import { scopeSchema } from '../../../../shared/gateway-api.js';
import type { FormFieldRef } from '../../lib/form-issues.js';

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

/** The number of one-letter edits between two names (Levenshtein), case ignored. */
function editDistance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= y.length; j += 1)
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[y.length]!;
}

/** The existing name a typed one most likely meant (a typo: a few letters apart), if any. */
export function closestName(typed: string, known: readonly string[]): string | undefined {
  let best: { readonly name: string; readonly distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(typed, name);
    if (distance <= Math.max(2, Math.floor(name.length / 4)) && (best === undefined || distance < best.distance))
      best = { name, distance };
  }
  return best?.name;
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
