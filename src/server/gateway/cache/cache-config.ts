import { z } from 'zod';
import { cacheModelNameSchema, cacheRuleSchema, MAX_CACHE_TTL_SECONDS } from '../../../shared/cache-api.js';
import { apiKeyIdSchema } from '../../../shared/principals-api.js';

/**
 * The largest answer kept when the file names no `max_entry_bytes`: 40 MiB holds an OpenAI embeddings
 * batch at its largest (2,048 inputs) as base64, the SDKs' default, at 1536 dimensions (17 MB) and at
 * 3072 (34 MB). A kept answer costs about its size in memory (a one-byte string), within `max_bytes`.
 */
export const DEFAULT_MAX_ENTRY_BYTES = 40 * 1024 ** 2;

/** The `cache` section of the configuration file: off unless turned on. */
export const cacheConfigSchema = z
  .object({
    enabled: z.boolean().default(false),
    ttl_seconds: z.number().int().min(1).max(MAX_CACHE_TTL_SECONDS).default(300),
    // Sampled answers differ from call to call; by default only temperature 0 (and embeddings) are kept.
    sampled: z.boolean().default(false),
    max_entries: z.number().int().min(1).max(10_000_000).default(10_000),
    max_bytes: z
      .number()
      .int()
      .min(1024)
      .max(16 * 1024 ** 3)
      .default(256 * 1024 ** 2),
    // Without one, the default (or max_bytes, when that is smaller): a small max_bytes alone stays valid.
    max_entry_bytes: z
      .number()
      .int()
      .min(1)
      .max(1024 ** 3)
      .optional(),
    models: z.record(cacheModelNameSchema, cacheRuleSchema).default({}),
    keys: z.record(apiKeyIdSchema, cacheRuleSchema).default({}),
  })
  .strict()
  // The bound the admin API holds a change to: an answer larger than the whole cache could never be kept.
  .refine((cache) => cache.max_entry_bytes === undefined || cache.max_entry_bytes <= cache.max_bytes, {
    path: ['max_entry_bytes'],
    error: (issue) => {
      const cache = issue.input as { max_entry_bytes: number; max_bytes: number };
      return `must not exceed max_bytes (${cache.max_bytes}), got ${cache.max_entry_bytes}`;
    },
  })
  .transform((cache) => ({
    ...cache,
    max_entry_bytes: cache.max_entry_bytes ?? Math.min(DEFAULT_MAX_ENTRY_BYTES, cache.max_bytes),
  }));
