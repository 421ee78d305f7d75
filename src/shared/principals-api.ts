import { z } from 'zod';
import { queryFilter, queryInteger, queryParams } from './query-params.js';

/**
 * Schemas of users, teams and limits in the admin API (`/internal/users`, `/internal/teams`, the
 * `limits` of key records), shared by the server routes and the UI. Pure zod.
 */

/** What a refusal or a limit's status names: the rate limits and the budgets (the metric's `limit_type`). */
export const LIMIT_TYPES = [
  'requests',
  'tokens',
  'user_minute',
  'user_daily',
  'team_minute',
  'team_daily',
  'user_cost_daily',
  'team_cost_daily',
  'user_cost_monthly',
  'team_cost_monthly',
  'key_cost_daily',
  'key_cost_monthly',
  'parallel_requests',
] as const;
/** One kind of limit. */
export type LimitType = (typeof LIMIT_TYPES)[number];

const nullableCount = z.number().int().positive().nullable();

/**
 * The largest spend in dollars a budget (daily or monthly) may allow. Every larger one is as good as none (leave it
 * unset for that), and one near the largest number overflowed where spend is counted in micro-dollars.
 */
export const MAX_USD_BUDGET = 1_000_000_000;

/** The smallest budget: spend is counted in billionths of a dollar. */
export const MIN_USD_BUDGET = 0.000000001;

/** A daily or monthly budget in dollars; 0 freezes spending (every request is refused). */
export const usdBudgetSchema = z
  .number()
  .min(0, 'must be 0 (nothing may be spent) or more')
  // Spend is counted to the nano-dollar (roundUsd): a budget between 0 and that would read 0 unannounced.
  .refine(
    (usd) => usd === 0 || usd >= MIN_USD_BUDGET,
    'must be 0 (nothing may be spent) or at least 0.000000001 (a billionth of a dollar, the finest spend is counted in)',
  )
  .max(MAX_USD_BUDGET, `must be at most ${MAX_USD_BUDGET} (a billion dollars); leave it unset for no budget`);

/** The most requests in flight at once a key, user or team may be given (more is as good as none). */
export const MAX_PARALLEL_REQUESTS = 10_000;

/** A cap on requests in flight at once (`max_parallel_requests`); null: none of its own. */
export const maxParallelRequestsSchema = z
  .number()
  .int()
  .min(1, 'must be at least 1: a cap of 0 would refuse every request')
  .max(MAX_PARALLEL_REQUESTS, `must be at most ${MAX_PARALLEL_REQUESTS}; leave it unset (null) for no cap`)
  .nullable();

/**
 * Limits and budgets of a user or team (null: none of its own; the configuration's default applies).
 * `rpm_limit` and `tpm_limit` are token buckets refilled per minute; `tpm_budget` and `tpd_budget`
 * are tokens per UTC minute and day; `usd_daily_budget` and `usd_monthly_budget` are spend per UTC day
 * and per UTC calendar month where pricing is set.
 */
export const principalLimitsSchema = z.object({
  rpm_limit: nullableCount.optional(),
  tpm_limit: nullableCount.optional(),
  max_parallel_requests: maxParallelRequestsSchema.optional(),
  tpm_budget: nullableCount.optional(),
  tpd_budget: nullableCount.optional(),
  usd_daily_budget: usdBudgetSchema.nullable().optional(),
  usd_monthly_budget: usdBudgetSchema.nullable().optional(),
});

/** How API keys' secrets start (the server's KEY_PREFIX); no user or team id may. */
const SECRET_PREFIX = 'gk-';

/**
 * A user or team id: letters and digits of any script and `._@+-`, as names and e-mail addresses are
 * written. Composed to Unicode NFC, as sign-ins compose the ids they take from claims: `ü` typed as
 * `u` and a combining mark is the same person, and must not become a second record with its own budgets.
 */
export const principalIdSchema = z
  .string()
  .normalize('NFC')
  .min(1)
  .max(200)
  // Letters of any script, as e-mail addresses (the usual user id, from SSO too) may be written.
  .regex(/^[\p{L}\p{Nd}\p{M}._@+-]+$/u, { error: 'must be letters and digits (of any script) and . _ @ + - only' })
  // An API key's secret pasted here would become a record whose id is the secret, shown in every list,
  // audit event and usage row. The message never repeats the value. (The master key is refused where it is known.)
  .refine((id) => !id.startsWith(SECRET_PREFIX), {
    error: `must not start with '${SECRET_PREFIX}': that is how API keys' secrets start, and an id is no secret`,
  });

/**
 * A list filter naming a user or team, composed (NFC) as ids are, so `ü` typed either way finds the
 * records. Not held to the id rules: a filter finds records, it makes none, and older ones may predate them.
 */
export const principalFilter = queryFilter.normalize('NFC');

/** An API key id (`key_...`), as cache rules, purges and RAG access lists name keys. */
export const apiKeyIdSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9_-]*$/, { error: 'must be an API key id: letters, digits, _ and - (key_...)' });

/** The most top-level entries a key's, user's or team's `metadata` may hold. */
export const MAX_ADMIN_METADATA_ENTRIES = 64;
/** The most bytes a key's, user's or team's `metadata` may take as JSON (UTF-8): 8 KiB. */
export const MAX_ADMIN_METADATA_BYTES = 8192;

/** Metadata as records show it: stored values are shown whatever their size (older ones were unbounded). */
const metadataSchema = z.record(z.string(), z.unknown());

/**
 * Metadata as a request sets it: labels (cost centre, owner, ticket), not documents. Every listing
 * and audit event carries it, so one large value would slow each read of every key and stay in the
 * audit log for good; 64 entries of about 128 bytes each fit.
 */
export const metadataInputSchema = metadataSchema.check((ctx) => {
  const entries = Object.keys(ctx.value).length;
  if (entries > MAX_ADMIN_METADATA_ENTRIES)
    ctx.issues.push({
      code: 'custom',
      input: ctx.value,
      message: `must have at most ${MAX_ADMIN_METADATA_ENTRIES} entries, got ${entries}`,
    });
  const bytes = new TextEncoder().encode(JSON.stringify(ctx.value)).length;
  if (bytes > MAX_ADMIN_METADATA_BYTES)
    ctx.issues.push({
      code: 'custom',
      input: ctx.value,
      message: `must be at most ${MAX_ADMIN_METADATA_BYTES} bytes (8 KiB) as JSON, got ${bytes}`,
    });
});

/** `POST /internal/teams` body. */
export const teamCreateSchema = principalLimitsSchema
  .extend({
    id: principalIdSchema,
    name: z.string().min(1).max(200).optional(),
    metadata: metadataInputSchema.optional(),
  })
  .strict();
/** Body of a team creation. */
export type TeamCreate = z.infer<typeof teamCreateSchema>;

/** `PATCH /internal/teams/:id` body: only the given fields change; `null` clears. */
export const teamUpdateSchema = principalLimitsSchema
  .extend({
    name: z.string().min(1).max(200).nullable().optional(),
    metadata: metadataInputSchema.nullable().optional(),
  })
  .strict();
/** Body of a team update. */
export type TeamUpdate = z.infer<typeof teamUpdateSchema>;

/** `POST /internal/users` body. */
export const userCreateSchema = principalLimitsSchema
  .extend({
    id: principalIdSchema,
    name: z.string().min(1).max(200).optional(),
    email: z.email().max(320).optional(),
    team: principalIdSchema.optional(),
    metadata: metadataInputSchema.optional(),
  })
  .strict();
/** Body of a user creation. */
export type UserCreate = z.infer<typeof userCreateSchema>;

/** `PATCH /internal/users/:id` body. */
export const userUpdateSchema = principalLimitsSchema
  .extend({
    name: z.string().min(1).max(200).nullable().optional(),
    email: z.email().max(320).nullable().optional(),
    team: principalIdSchema.nullable().optional(),
    metadata: metadataInputSchema.nullable().optional(),
  })
  .strict();
/** Body of a user update. */
export type UserUpdate = z.infer<typeof userUpdateSchema>;

/** Where a limit stands now: what it allows, what is used and when it is whole again. */
export const limitStatusSchema = z.object({
  limit_type: z.enum(LIMIT_TYPES),
  /** Whose limit: `key:<id>`, `user:<id>`, `team:<id>` or `model:<name>`. */
  subject: z.string(),
  limit: z.number(),
  used: z.number(),
  remaining: z.number(),
  /** Milliseconds until the bucket is full again, or until the budget's window ends. */
  reset_ms: z.number(),
  /**
   * Set on a budget whose `remaining` is below what one request needs, so that it refuses requests
   * now: `needed` is what the last request it refused in its current window needed (`last_refusal`),
   * or the least a request without `max_tokens` reserves (`smallest_request`: a minimal prompt plus
   * the output reservation, in dollars at the cheapest model the key may call).
   */
  refusing: z.object({ needed: z.number(), basis: z.enum(['last_refusal', 'smallest_request']) }).optional(),
  /**
   * Only on a user's or team's budget that the key caps (`user_tpd_budget`, ...): which setting is the
   * limit in force, the key's cap (`key`) or the user's or team's own budget (`user`, `team`).
   */
  set_by: z.enum(['key', 'user', 'team']).optional(),
});
/** A limit's status. */
export type LimitStatus = z.infer<typeof limitStatusSchema>;

/** What a user or team has spent today (UTC). */
const todaySchema = z.object({ requests: z.number(), tokens: z.number(), cost_usd: z.number() });

const limitFieldsSchema = z.object({
  rpm_limit: z.number().nullable(),
  tpm_limit: z.number().nullable(),
  max_parallel_requests: z.number().nullable(),
  tpm_budget: z.number().nullable(),
  tpd_budget: z.number().nullable(),
  usd_daily_budget: z.number().nullable(),
  usd_monthly_budget: z.number().nullable(),
});

/** A team as the admin API shows it. */
export const teamRecordSchema = limitFieldsSchema.extend({
  id: z.string(),
  name: z.string().nullable(),
  metadata: metadataSchema.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  users: z.number(),
  keys: z.number(),
  today: todaySchema,
  limits: z.array(limitStatusSchema),
});
/** A team record. */
export type TeamRecord = z.infer<typeof teamRecordSchema>;

/** A user as the admin API shows it. */
export const userRecordSchema = limitFieldsSchema.extend({
  id: z.string(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  team: z.string().nullable(),
  metadata: metadataSchema.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  keys: z.number(),
  today: todaySchema,
  limits: z.array(limitStatusSchema),
});
/** A user record. */
export type UserRecord = z.infer<typeof userRecordSchema>;

/**
 * Paging of an admin list: at most `limit` records (every one when absent), after `after`, the previous
 * page's `next_cursor` (the id of its last record, or the key of its last document).
 */
export const listPageQuery = (cursorMaxLength: number) => ({
  limit: queryInteger(1, 1000).optional(),
  after: z.string().min(1).max(cursorMaxLength).optional(),
});

/** `GET /internal/teams` query: pages by id. */
export const teamListQuerySchema = queryParams(listPageQuery(200));
/** `GET /internal/teams` answer: by id (bytewise); `next_cursor` is the `after` of the next page (null on the last). */
export const teamListSchema = z.object({ data: z.array(teamRecordSchema), next_cursor: z.string().nullable() });
/** A list of teams. */
export type TeamList = z.infer<typeof teamListSchema>;
/** `GET /internal/users` answer: by id (bytewise), with `next_cursor` as the teams'. */
export const userListSchema = z.object({ data: z.array(userRecordSchema), next_cursor: z.string().nullable() });
/** A list of users. */
export type UserList = z.infer<typeof userListSchema>;
/** `GET /internal/users` query: one team's users only, and pages by id. */
export const userListQuerySchema = queryParams({ team: principalFilter.optional(), ...listPageQuery(200) });
