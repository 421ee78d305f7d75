import { z } from 'zod';
import { usdBudgetSchema } from '../../shared/principals-api.js';

const limit = z.number().int().positive();

/** Rate limits (token buckets refilled per minute) that a key, a model or a default may set. */
const rateLimitsSchema = z.object({ rpm_limit: limit.optional(), tpm_limit: limit.optional() }).strict();

/**
 * Requests one key, user or team may have in flight at once: bounds how far concurrent streams without
 * `max_tokens` can overspend a token limit or budget, which each settles only when it ends.
 */
const maxParallelRequests = limit.optional();

/** Rate limits and spend budgets a default for keys may set (each key's own spend, per UTC day and month). */
const keyDefaultsSchema = rateLimitsSchema
  .extend({
    usd_daily_budget: usdBudgetSchema.optional(),
    usd_monthly_budget: usdBudgetSchema.optional(),
    max_parallel_requests: maxParallelRequests,
  })
  .strict();

/** Rate limits and budgets a default for users or teams may set (each one's own record overrides it). */
const principalDefaultsSchema = rateLimitsSchema
  .extend({
    tpm_budget: limit.optional(),
    tpd_budget: limit.optional(),
    usd_daily_budget: usdBudgetSchema.optional(),
    usd_monthly_budget: usdBudgetSchema.optional(),
    max_parallel_requests: maxParallelRequests,
  })
  .strict();

/**
 * `limits`: defaults for keys, users and teams without limits of their own, per-model rate limits
 * shared by every caller (an upstream's own quota, for example), and how many output tokens a request
 * that states no maximum reserves until its real usage is known.
 */
export const limitsSchema = z
  .object({
    keys: keyDefaultsSchema.prefault({}),
    users: principalDefaultsSchema.prefault({}),
    teams: principalDefaultsSchema.prefault({}),
    models: z.record(z.string().min(1), rateLimitsSchema).default({}),
    output_reservation_tokens: z.number().int().min(0).max(1_000_000).default(256),
  })
  .strict();

/** The validated `limits` section. */
export type LimitsConfig = z.infer<typeof limitsSchema>;
