import {
  cacheSettingsSchema,
  cacheSettingsUpdateSchema,
  type CacheSettings,
  type CacheSettingsUpdate,
} from '../../../../shared/cache-api.js';
import { issueText, parseForm } from '../../lib/form-issues.js';

/** The cache settings as the form edits them: numbers as typed, rules as JSON text. */
export interface CacheDraft {
  readonly enabled: boolean;
  readonly sampled: boolean;
  readonly ttl_seconds: string;
  readonly max_entries: string;
  readonly max_bytes: string;
  readonly max_entry_bytes: string;
  readonly models: string;
  readonly keys: string;
}

/** The form's starting point for the settings in force. */
export function cacheDraftOf(settings: CacheSettings): CacheDraft {
  return {
    enabled: settings.enabled,
    sampled: settings.sampled,
    ttl_seconds: String(settings.ttl_seconds),
    max_entries: String(settings.max_entries),
    max_bytes: String(settings.max_bytes),
    max_entry_bytes: String(settings.max_entry_bytes),
    models: JSON.stringify(settings.models, null, 2),
    keys: JSON.stringify(settings.keys, null, 2),
  };
}

/** The form's fields that can hold a problem, each with its label (the subject of its messages) and control id. */
export const CACHE_FIELDS = {
  ttl_seconds: { label: 'Time to live', id: 'cache-ttl' },
  max_entries: { label: 'Most answers kept', id: 'cache-entries' },
  max_bytes: { label: 'Memory bound', id: 'cache-bytes' },
  max_entry_bytes: { label: 'Largest answer kept', id: 'cache-entry-bytes' },
  models: { label: 'Per-model rules', id: 'cache-models' },
  keys: { label: 'Per-key rules', id: 'cache-keys' },
} as const;

/** A field of the form that can hold a problem. */
export type CacheField = keyof typeof CACHE_FIELDS;

/** A number field as the schema should see it: a number when the text is one, else the text itself to be refused. */
function numberOf(text: string): number | string {
  const value = Number(text.trim());
  return text.trim() !== '' && Number.isFinite(value) ? value : text.trim();
}

/** Rules typed as JSON: the object, or what is wrong with it, naming the field and the rule's path. */
function rules(text: string, field: 'models' | 'keys'): { readonly value?: unknown; readonly error?: string } {
  const { label } = CACHE_FIELDS[field];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.trim() === '' ? '{}' : text);
  } catch {
    return { error: `${label} must be JSON, like {"name": {"enabled": false, "ttl_seconds": 60}}` };
  }
  // The rule maps as the server checks them, names included.
  const result = cacheSettingsSchema.shape[field].safeParse(parsed, {
    error: (issue) => issueText(issue, `${label}: ${(issue.path ?? []).join('.')}`),
  });
  if (result.success) return { value: result.data };
  const issue = result.error.issues[0]!;
  return {
    error: issue.message.startsWith(label) ? issue.message : `${label}: ${issue.path.join('.')}: ${issue.message}`,
  };
}

/**
 * The update the form describes, or its problems per field: whole numbers within the shared schema's
 * ranges, rules as JSON the schema accepts. Checked as the user types, so each problem shows on its
 * field at once.
 */
export function cacheUpdateOf(draft: CacheDraft): {
  readonly update?: CacheSettingsUpdate;
  readonly errors: Partial<Record<CacheField, string>>;
} {
  const models = rules(draft.models, 'models');
  const keys = rules(draft.keys, 'keys');
  const refs = Object.fromEntries(
    (Object.keys(CACHE_FIELDS) as CacheField[]).map((field) => [field, { field, label: CACHE_FIELDS[field].label }]),
  );
  const { data, errors } = parseForm(
    cacheSettingsUpdateSchema,
    {
      enabled: draft.enabled,
      sampled: draft.sampled,
      ttl_seconds: numberOf(draft.ttl_seconds),
      max_entries: numberOf(draft.max_entries),
      max_bytes: numberOf(draft.max_bytes),
      max_entry_bytes: numberOf(draft.max_entry_bytes),
      // Rules that are not valid are reported below, on their own field.
      ...(models.error ? {} : { models: models.value }),
      ...(keys.error ? {} : { keys: keys.value }),
    },
    refs,
    { field: 'models', label: CACHE_FIELDS.models.label },
  );
  const all = {
    ...errors,
    ...(models.error ? { models: models.error } : {}),
    ...(keys.error ? { keys: keys.error } : {}),
  };
  return Object.keys(all).length > 0 || !data ? { errors: all } : { update: data, errors: {} };
}

/** The form's problems in the order of its fields, each with the id of the control to fix it in. */
export function cacheProblems(
  errors: Partial<Record<CacheField, string>>,
): readonly { readonly fieldId: string; readonly message: string }[] {
  return (Object.keys(CACHE_FIELDS) as CacheField[]).flatMap((field) => {
    const message = errors[field];
    return message ? [{ fieldId: CACHE_FIELDS[field].id, message }] : [];
  });
}

/** The per-key rules typed so far as an object, or undefined while they are not a JSON object. */
export function keyRulesOf(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text.trim() === '' ? '{}' : text);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The rules with one for the key added (caching off for it, the usual reason for a key rule), to edit from there. */
export function withKeyRule(text: string, keyId: string): string {
  const rules = keyRulesOf(text) ?? {};
  return JSON.stringify({ ...rules, [keyId]: rules[keyId] ?? { enabled: false } }, null, 2);
}
