import { z } from 'zod';
import { apiKeyIdSchema, principalIdSchema } from './principals-api.js';

/**
 * Schemas of the response cache's settings and its admin API (`/internal/cache`), shared by the
 * configuration, the server routes and the UI. Pure zod: no Node or database imports.
 */

/** Longest time an answer may be kept: 30 days. */
export const MAX_CACHE_TTL_SECONDS = 30 * 24 * 3600;

const ttlSeconds = z.number().int().min(1).max(MAX_CACHE_TTL_SECONDS);

/** A model a cache rule or purge names: as the other admin settings take them, and never with control characters. */
export const cacheModelNameSchema = z
  .string()
  .min(1)
  .max(200)
  // eslint-disable-next-line no-control-regex
  .refine((name) => !/[\u0000-\u001f\u007f]/.test(name), { error: 'must not contain control characters' });

/** What a model or key changes of the global settings; an absent field inherits. */
export const cacheRuleSchema = z
  .object({
    enabled: z.boolean().optional(),
    ttl_seconds: ttlSeconds.optional(),
    /** Also cache sampled requests (temperature absent or above 0). */
    sampled: z.boolean().optional(),
  })
  .strict();
/** One per-model or per-key rule. */
export type CacheRule = z.infer<typeof cacheRuleSchema>;

/** The cache's settings, every field present. */
export const cacheSettingsSchema = z
  .object({
    enabled: z.boolean(),
    ttl_seconds: ttlSeconds,
    sampled: z.boolean(),
    /** Most answers kept at once. */
    max_entries: z.number().int().min(1).max(10_000_000),
    /** Most bytes (UTF-8) of answers kept at once (the memory bound). */
    max_bytes: z
      .number()
      .int()
      .min(1024)
      .max(16 * 1024 ** 3),
    /** Larger answers (UTF-8 bytes) are not kept; at most `max_bytes`. */
    max_entry_bytes: z
      .number()
      .int()
      .min(1)
      .max(1024 ** 3),
    /** Rules per canonical model name. */
    models: z.record(cacheModelNameSchema, cacheRuleSchema),
    /** Rules per API key id (they win over the model's). */
    keys: z.record(apiKeyIdSchema, cacheRuleSchema),
  })
  .strict();
/** The cache's settings. */
export type CacheSettings = z.infer<typeof cacheSettingsSchema>;

/** `PUT /internal/cache` body: the fields to change, or `reset: true` to return to the configuration file's. */
export const cacheSettingsUpdateSchema = cacheSettingsSchema
  .partial()
  .extend({ reset: z.literal(true).optional() })
  .strict();
/** A settings change. */
export type CacheSettingsUpdate = z.infer<typeof cacheSettingsUpdateSchema>;

/** What the cache holds now. */
export const cacheStatsSchema = z.object({
  entries: z.number(),
  /** UTF-8 bytes of the answers held now, what `max_bytes` bounds. */
  bytes: z.number(),
  hits: z.number(),
  misses: z.number(),
  stores: z.number(),
  /** Requests whose headers turned the cache off for them (`no-store`, `x-gatehouse-cache: off`). */
  bypasses: z.number(),
  /** Requests whose headers skipped the lookup but kept the fresh answer (`no-cache`, `x-gatehouse-cache: refresh`). */
  refreshes: z.number(),
  /** Requests answered with an identical request's answer while it was in flight (counted in `hits` too). */
  collapsed: z.number(),
  /** Answers the cache would have kept but did not, by why: each is the next identical request's miss. */
  not_kept: z.object({
    /** Larger than `max_entry_bytes`. */
    too_large: z.number(),
    /** Not a whole answer: a Response not `completed`, a content-filtered or refused one. */
    incomplete: z.number(),
    /** The client left before the answer was complete. */
    client_left: z.number(),
    /** The provider call failed, or the stream broke. */
    error: z.number(),
  }),
});
/** Why an answer was not kept. */
export type NotKeptReason = keyof CacheStats['not_kept'];
/** Cache counters since start. */
export type CacheStats = z.infer<typeof cacheStatsSchema>;

/** `GET /internal/cache` answer. */
export const cacheViewSchema = z.object({
  settings: cacheSettingsSchema,
  /** `config`: the configuration file's settings; `admin`: changed through the admin API. */
  source: z.enum(['config', 'database']),
  updated_at: z.string().nullable(),
  stats: cacheStatsSchema,
  /**
   * `PUT /internal/cache` only: kept answers the change forgot (all of them when it turned the cache
   * off; those older than every time to live now in force otherwise).
   */
  purged: z.number().optional(),
});
/** The cache's settings and state. */
export type CacheView = z.infer<typeof cacheViewSchema>;

/** `POST /internal/cache/purge` body: nothing purges everything; fields narrow it (all must match). */
export const cachePurgeSchema = z
  .object({
    team: principalIdSchema.optional(),
    key_id: apiKeyIdSchema.optional(),
    model: cacheModelNameSchema.optional(),
  })
  .strict();
/** A purge request. */
export type CachePurge = z.infer<typeof cachePurgeSchema>;

/** `POST /internal/cache/purge` answer. */
export const cachePurgeResultSchema = z.object({ purged: z.number() });
