import { z } from 'zod';
import { cacheModelNameSchema, cacheRuleSchema, MAX_CACHE_TTL_SECONDS } from '../../../shared/cache-api.js';
import { apiKeyIdSchema } from '../../../shared/principals-api.js';

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
    max_entry_bytes: z
      .number()
      .int()
      .min(1)
      .max(1024 ** 3)
      .default(4 * 1024 ** 2),
    models: z.record(cacheModelNameSchema, cacheRuleSchema).default({}),
    keys: z.record(apiKeyIdSchema, cacheRuleSchema).default({}),
  })
  .strict();
