import type { z } from 'zod';
import {
  ragCollectionUpdateSchema,
  type RagAccess,
  type RagCollection,
  type RagCollectionUpdate,
  type RagSource,
} from '../../../../shared/rag-api.js';
import { issueText } from '../../lib/form-issues.js';

/** A collection's description, readers and store source as the new and edit dialogs type them (comma-separated lists). */
export interface CollectionForm {
  readonly description: string;
  readonly teams: string;
  readonly users: string;
  readonly keys: string;
  /** Empty: the collection follows no store namespace. */
  readonly namespace: string;
  readonly branch: string;
}

/** Problems per field of a {@link CollectionForm}. */
export type CollectionFormErrors = Partial<Record<keyof CollectionForm, string>>;

/** Each field's label in the dialogs. */
export const COLLECTION_LABELS = {
  description: 'Description',
  teams: 'Teams',
  users: 'Users',
  keys: 'Key ids',
  namespace: 'Store namespace',
  branch: 'Store branch',
} as const satisfies Record<keyof CollectionForm, string>;

/** The form of a new collection: no readers listed, no source. */
export const EMPTY_COLLECTION_FORM: CollectionForm = {
  description: '',
  teams: '',
  users: '',
  keys: '',
  namespace: '',
  branch: 'main',
};

/** A stored collection as the edit form starts. */
export function collectionForm(collection: RagCollection): CollectionForm {
  return {
    description: collection.description,
    teams: collection.access.teams.join(', '),
    users: collection.access.users.join(', '),
    keys: collection.access.keys.join(', '),
    namespace: collection.source?.namespace ?? '',
    branch: collection.source?.branch ?? 'main',
  };
}

/** Comma-separated text to a list (empty entries dropped). */
export function splitList(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** The access lists the form names. */
export function formAccess(form: CollectionForm): RagAccess {
  return { teams: splitList(form.teams), users: splitList(form.users), keys: splitList(form.keys) };
}

/** The store source the form names; null when its namespace is empty (not followed). */
export function formSource(form: CollectionForm): RagSource | null {
  const namespace = form.namespace.trim();
  return namespace === '' ? null : { namespace, branch: form.branch.trim() || 'main' };
}

const sameList = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((item, index) => item === b[index]);

/** Whether two sources name the same namespace and branch (null: none). */
export function sameSource(a: RagSource | null, b: RagSource | null): boolean {
  return a === null || b === null ? a === b : a.namespace === b.namespace && a.branch === b.branch;
}

/**
 * The `PATCH /internal/rag/collections/:name` body with only what the form changed (the access lists
 * go together: the gateway replaces all three; an emptied namespace is `source: null`, stop
 * following), checked with the shared schema the gateway uses; or the problems per field.
 */
export function toCollectionUpdate(
  form: CollectionForm,
  collection: RagCollection,
): { readonly body?: RagCollectionUpdate; readonly errors: CollectionFormErrors } {
  const body: Record<string, unknown> = {};
  if (form.description !== collection.description) body.description = form.description;
  const access = formAccess(form);
  const stored = collection.access;
  if (
    !sameList(access.teams, stored.teams) ||
    !sameList(access.users, stored.users) ||
    !sameList(access.keys, stored.keys)
  )
    body.access = access;
  const source = formSource(form);
  if (!sameSource(source, collection.source)) body.source = source;
  return checkBody(ragCollectionUpdateSchema, body);
}

/** Where a body field's path (`access.keys[0]`, `source.namespace`) is typed in the form; undefined for none. */
export function fieldOfPath(path: string): keyof CollectionForm | undefined {
  const match = /^(description|access\.(keys|users|teams)|source(?:\.(namespace|branch))?)(?:\[\d+\])?$/.exec(path);
  if (!match) return undefined;
  if (match[1] === 'description') return 'description';
  if (match[2]) return match[2] as 'keys' | 'users' | 'teams';
  return match[3] === 'branch' ? 'branch' : 'namespace';
}

/** A path as the gateway writes it in its messages: `access.keys[0]`. */
const pathText = (path: readonly PropertyKey[]): string =>
  path.reduce<string>(
    (text, part) => (typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${String(part)}` : String(part)),
    '',
  );

/** The value at a path of the body sent (a list entry), for naming it in a message. */
function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>(
    (value, part) =>
      value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[part] : undefined,
    body,
  );
}

/**
 * A message about one body field, worded for the form field it is shown at: a list entry is named by
 * its value ("“sales team” must be…"), a bare predicate gets the field's label as its subject.
 */
export function problemText(message: string, field: keyof CollectionForm, entry: unknown): string {
  const subject = typeof entry === 'string' ? `“${entry}”` : COLLECTION_LABELS[field];
  if (/^(must|may|is|are|has|cannot)\b/.test(message)) return `${subject} ${message}`;
  return message.charAt(0).toUpperCase() + message.slice(1);
}

/** Checks a body with a shared schema, each problem put on the form field that holds what it is about. */
export function checkBody<T>(
  schema: z.ZodType<T>,
  body: unknown,
): { readonly body?: T; readonly errors: CollectionFormErrors } {
  const fieldOf = (path: readonly PropertyKey[]): keyof CollectionForm =>
    fieldOfPath(pathText(path.filter((part) => typeof part !== 'number'))) ?? 'description';
  const parsed = schema.safeParse(body, {
    error: (issue) => {
      const path = issue.path ?? [];
      const entry = typeof path.at(-1) === 'number' ? valueAt(body, path) : undefined;
      return issueText(issue, typeof entry === 'string' ? `“${entry}”` : COLLECTION_LABELS[fieldOf(path)]);
    },
  });
  if (parsed.success) return { body: parsed.data, errors: {} };
  const errors: CollectionFormErrors = {};
  for (const issue of parsed.error.issues) {
    const field = fieldOf(issue.path);
    errors[field] ??= problemText(issue.message, field, valueAt(body, issue.path));
  }
  return { errors };
}
