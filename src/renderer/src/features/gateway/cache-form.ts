import { z } from 'zod';
import { cacheRuleSchema, type CacheSettings, type CacheSettingsUpdate } from '../../../../shared/cache-api.js';

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

const rulesSchema = z.record(z.string().min(1), cacheRuleSchema);

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

function integer(text: string, field: string): number | string {
  const value = Number(text.trim());
  return text.trim() !== '' && Number.isInteger(value) ? value : `${field} must be a whole number`;
}

function rules(text: string, field: string): Record<string, z.infer<typeof cacheRuleSchema>> | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.trim() === '' ? '{}' : text);
  } catch {
    return `${field} must be JSON: {"name": {"enabled": false, "ttl_seconds": 60}}`;
  }
  const result = rulesSchema.safeParse(parsed);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  return `${field}.${issue.path.join('.')}: ${issue.message}`;
}

/** The update the form describes, or the first problem found (the server checks the ranges again). */
export function cacheUpdateOf(draft: CacheDraft): { update?: CacheSettingsUpdate; error?: string } {
  const ttl = integer(draft.ttl_seconds, 'ttl_seconds');
  const entries = integer(draft.max_entries, 'max_entries');
  const bytes = integer(draft.max_bytes, 'max_bytes');
  const entryBytes = integer(draft.max_entry_bytes, 'max_entry_bytes');
  const models = rules(draft.models, 'models');
  const keys = rules(draft.keys, 'keys');
  for (const value of [ttl, entries, bytes, entryBytes, models, keys])
    if (typeof value === 'string') return { error: value };
  return {
    update: {
      enabled: draft.enabled,
      sampled: draft.sampled,
      ttl_seconds: ttl as number,
      max_entries: entries as number,
      max_bytes: bytes as number,
      max_entry_bytes: entryBytes as number,
      models: models as CacheSettings['models'],
      keys: keys as CacheSettings['keys'],
    },
  };
}
