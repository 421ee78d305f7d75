import { z } from 'zod';
import { looksLikeSecret, SECRET_NOT_NAME } from './variable-name.js';
import { guardrailsOutcomeSchema } from './guardrails-api.js';
import {
  limitStatusSchema,
  listPageQuery,
  maxParallelRequestsSchema,
  metadataInputSchema,
  principalFilter,
  principalIdSchema,
  usdBudgetSchema,
} from './principals-api.js';
import { queryFilter, queryInteger, queryParams, queryTimeMessage } from './query-params.js';
// The relayed-error redactor's key shapes, so a base URL is judged by the same ones.
import { holdsSecret, REDACTED, redactSecrets } from './secret-shapes.js';

/**
 * Schemas of the gateway's admin API (`/internal/*`), shared by the server routes and the UI so the
 * two cannot drift. Pure zod: no Node or database imports. Times are ISO-8601 strings on the wire.
 */

/**
 * The scopes named by a fixed word, as the key dialog lists them: an endpoint family each, `metrics`
 * (scraping `/metrics` when `gateway.metrics_public` is false) and `*` (everything).
 */
export const PLAIN_SCOPES = ['chat', 'embeddings', 'responses', 'metrics', '*'] as const;
/** One of {@link PLAIN_SCOPES}. */
export type PlainScope = (typeof PLAIN_SCOPES)[number];

const plainScopeWords = PLAIN_SCOPES.map((scope) => (scope === '*' ? '\\*' : scope)).join('|');
// `*` last, as the broadest.
const scopeChoices = [...PLAIN_SCOPES.filter((scope) => scope !== '*'), 'rag:<collection>', 'rag:*', '*'];

/** Scopes a key may carry: {@link PLAIN_SCOPES}, `rag:<collection>`, `rag:*`. */
export const scopeSchema = z.string().regex(new RegExp(`^(${plainScopeWords}|rag:(\\*|[A-Za-z0-9._/-]+))$`), {
  // The gateway's validator adds the value received.
  error: `must be one of ${scopeChoices.map((scope) => `'${scope}'`).join(', ')}`,
});
/** One scope. */
export type Scope = z.infer<typeof scopeSchema>;

const isoTime = z.iso.datetime({ offset: true });
/** The longest lifetime a key may be given: 100 years (far past it, the expiry is no longer a date). */
export const MAX_KEY_LIFETIME_SECONDS = 100 * 365.25 * 24 * 3600;
const nullableLimit = z.number().int().positive().nullable();

/**
 * Limits and budgets stored on a key (budgets for its user and team can only tighten theirs); enforced by
 * the limits stage. `usd_daily_budget` and `usd_monthly_budget` are the key's own spend per UTC day and
 * UTC calendar month.
 */
export const keyLimitsSchema = z.object({
  rpm_limit: nullableLimit.optional(),
  tpm_limit: nullableLimit.optional(),
  max_parallel_requests: maxParallelRequestsSchema.optional(),
  usd_daily_budget: usdBudgetSchema.nullable().optional(),
  usd_monthly_budget: usdBudgetSchema.nullable().optional(),
  user_tpm_budget: nullableLimit.optional(),
  user_tpd_budget: nullableLimit.optional(),
  team_tpm_budget: nullableLimit.optional(),
  team_tpd_budget: nullableLimit.optional(),
});

/**
 * A key's model allow-list: null or absent for every allowed model. An empty list would allow none (LiteLLM
 * reads `[]` as every model), so a key with it could call nothing: refused, saying how to allow all.
 */
const keyModelsSchema = z
  .array(z.string().min(1))
  .refine(
    (models) => models.length > 0,
    'must list at least one model: leave it out, or send null, for every allowed model',
  )
  .nullable()
  .optional();

/** A key's lifetime from now, in seconds (the alternative to `expires_at`). */
const keyLifetimeSchema = z
  .number()
  .int()
  .positive()
  .max(MAX_KEY_LIFETIME_SECONDS, 'must be at most 100 years')
  .optional();

// Two expiries would leave one silently ignored: the key would live longer or shorter than asked.
const oneExpiry = (input: { expires_in_seconds?: number; expires_at?: string | null }): boolean =>
  input.expires_in_seconds === undefined || input.expires_at === undefined;
const ONE_EXPIRY = { message: 'cannot be given with expires_at: give one of them', path: ['expires_in_seconds'] };

/** `POST /internal/api-keys` body. Without `scopes` a key gets `["chat"]`. */
export const apiKeyCreateSchema = keyLimitsSchema
  .extend({
    name: z.string().min(1).max(200).optional(),
    /** A key for a user or team creates its record: the ids follow the records' rules. */
    // null as on update: no user (or team), as leaving it out says.
    user: principalIdSchema.nullable().optional(),
    team: principalIdSchema.nullable().optional(),
    scopes: z.array(scopeSchema).min(1).optional(),
    /** Optional allow-list of canonical model names this key may use (null or absent: every allowed model). */
    models: keyModelsSchema,
    expires_at: isoTime.nullable().optional(),
    /** Alternative to `expires_at`: lifetime from now. */
    expires_in_seconds: keyLifetimeSchema,
    metadata: metadataInputSchema.optional(),
    /** Whether the key may keep responses and continue kept ones (default true). */
    allow_stateful: z.boolean().optional(),
  })
  .strict()
  .refine(oneExpiry, ONE_EXPIRY)
  // A key issued already expired could never be used (an update may still set a past expiry: to end a key now).
  // A value that is no date at all is told so by its format check alone.
  .refine((input) => input.expires_at == null || !(Date.parse(input.expires_at) <= Date.now()), {
    message: 'must be in the future: a key issued already expired could never be used',
    path: ['expires_at'],
  });
/** Body of a key creation. */
export type ApiKeyCreate = z.infer<typeof apiKeyCreateSchema>;

/** `PATCH /internal/api-keys/:id` body: only the given fields change; `null` clears. */
export const apiKeyUpdateSchema = keyLimitsSchema
  .extend({
    name: z.string().min(1).max(200).nullable().optional(),
    user: principalIdSchema.nullable().optional(),
    team: principalIdSchema.nullable().optional(),
    scopes: z.array(scopeSchema).min(1).optional(),
    models: keyModelsSchema,
    expires_at: isoTime.nullable().optional(),
    /** Alternative to `expires_at`: lifetime from now (from the time of the update). */
    expires_in_seconds: keyLifetimeSchema,
    metadata: metadataInputSchema.nullable().optional(),
    allow_stateful: z.boolean().optional(),
  })
  .strict()
  .refine(oneExpiry, ONE_EXPIRY);
/** Body of a key update. */
export type ApiKeyUpdate = z.infer<typeof apiKeyUpdateSchema>;

/** Whether a key can be used: `active`, or `expired` or `revoked`. */
export const apiKeyStatusSchema = z.enum(['active', 'expired', 'revoked']);
/** A key's status. */
export type ApiKeyStatus = z.infer<typeof apiKeyStatusSchema>;

/** A key as the admin API shows it: never the secret, only its first characters. */
export const apiKeyRecordSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  key_prefix: z.string(),
  user: z.string().nullable(),
  team: z.string().nullable(),
  scopes: z.array(z.string()),
  models: z.array(z.string()).nullable(),
  rpm_limit: z.number().nullable(),
  tpm_limit: z.number().nullable(),
  max_parallel_requests: z.number().nullable(),
  usd_daily_budget: z.number().nullable(),
  usd_monthly_budget: z.number().nullable(),
  user_tpm_budget: z.number().nullable(),
  user_tpd_budget: z.number().nullable(),
  team_tpm_budget: z.number().nullable(),
  team_tpd_budget: z.number().nullable(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  allow_stateful: z.boolean(),
  expires_at: z.string().nullable(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  status: apiKeyStatusSchema,
  /** Single sign-on: the OpenID issuer and subject the key was issued to (null for admin-issued keys). */
  issuer: z.string().nullable(),
  subject: z.string().nullable(),
  /** When the secret was last replaced by `POST /internal/api-keys/:id/rotate` (null: never). */
  rotated_at: z.string().nullable(),
  /** Until when the secret before the last rotation still works (null: never rotated). */
  previous_key_expires_at: z.string().nullable(),
  /** Where the key's limits stand now (its own, its user's and its team's). */
  limits: z.array(limitStatusSchema).optional(),
});
/** A key record. */
export type ApiKeyRecord = z.infer<typeof apiKeyRecordSchema>;

/** The answer to a key creation: the record plus the secret, shown this once. */
export const apiKeyCreatedSchema = apiKeyRecordSchema.extend({ key: z.string() });
/** A freshly issued key. */
export type ApiKeyCreated = z.infer<typeof apiKeyCreatedSchema>;

/** The longest grace period a rotation gives the old secret: a week. */
export const MAX_ROTATION_GRACE_SECONDS = 7 * 86_400;

/**
 * `POST /internal/api-keys/:id/rotate` body (optional): how long the old secret keeps working beside
 * the new one, so clients can be moved over without an outage. Without it the old secret stops at once.
 */
export const apiKeyRotateSchema = z
  .object({
    grace_seconds: z
      .number()
      .int()
      .min(0)
      .max(MAX_ROTATION_GRACE_SECONDS, 'must be at most 604800 (a week)')
      .optional(),
  })
  .strict();
/** Body of a key rotation. */
export type ApiKeyRotate = z.infer<typeof apiKeyRotateSchema>;

/** `GET /internal/api-keys` query. */
export const apiKeyListQuerySchema = queryParams({
  user: principalFilter.optional(),
  team: principalFilter.optional(),
  /** Keys issued through this OpenID issuer only. */
  issuer: queryFilter.optional(),
  include_revoked: z.enum(['true', 'false']).optional(),
  /** Keys of this status only; `revoked` lists revoked keys without `include_revoked`. */
  status: apiKeyStatusSchema.optional(),
  /** Keys whose name holds this text, in any case of A-Z (as the Keys screen's filter finds a name). */
  name: queryFilter.optional(),
  /** A page of at most `limit` keys (every key when absent) after `after`, the id of the previous page's last key. */
  ...listPageQuery(200),
});

/** `GET /internal/api-keys` answer: newest first; `next_cursor` is the `after` of the next page (null on the last). */
export const apiKeyListSchema = z.object({ data: z.array(apiKeyRecordSchema), next_cursor: z.string().nullable() });
/** A list of keys. */
export type ApiKeyList = z.infer<typeof apiKeyListSchema>;

/** `:id` path parameter. */
export const idParamsSchema = z.object({ id: z.string().min(1).max(200) });

/**
 * A name in the allow-list. Gatehouse has no wildcard models: LiteLLM's `ollama/*` would be a model of
 * that literal name, which no request names, so it is refused rather than allowing nothing in silence.
 */
export const allowedModelNameSchema = z
  .string()
  .min(1)
  .refine((name) => !name.includes('*'), {
    message:
      "'*' is not a wildcard here: list each model (ollama/llama3.2), or route one public name to any upstream model through deployments",
  });

/** A price in US dollars: past a million dollars a token is no price any provider asks. */
const usdPrice = z.number().nonnegative().max(1e12, 'must be at most 1000000000000');

/** A model's price per million tokens: the configuration file's `pricing.<model>` and the admin API's. */
export const modelPriceSchema = z
  .object({
    input_per_mtok: usdPrice,
    output_per_mtok: usdPrice,
    /** Prompt tokens read from the provider's prompt cache (OpenAI's cached tokens, Anthropic's cache reads); the input price when unset. */
    cached_input_per_mtok: usdPrice.optional(),
    /** Prompt tokens written to Anthropic's prompt cache; the input price when unset. */
    cache_write_per_mtok: usdPrice.optional(),
    /** Anthropic's cache writes for an hour (`cache_control.ttl: 1h`); `cache_write_per_mtok` when unset. */
    cache_write_1h_per_mtok: usdPrice.optional(),
    /** USD per thousand web searches a provider ran for the request. */
    web_search_per_1k: usdPrice.optional(),
  })
  .strict();

/**
 * Model settings: the allow-list, aliases, per-model max_tokens caps, the default embedding model and
 * the prices usage cost and dollar budgets count by.
 */
export const modelSettingsSchema = z.object({
  allowed_models: z.array(allowedModelNameSchema),
  model_aliases: z.record(z.string().min(1), z.string().min(1)),
  per_model_max_tokens: z.record(z.string().min(1), z.number().int().positive()),
  default_embedding_model: z.string().min(1).nullable(),
  /** By model name (or a deployment's upstream model): a model without one costs $0 and fills no dollar budget. */
  pricing: z.record(z.string().min(1), modelPriceSchema),
});
/** Model settings. */
export type ModelSettings = z.infer<typeof modelSettingsSchema>;

/** Only the model settings of a record that carries more (the admin view's source, providers, limits). */
export function modelSettingsOf(settings: ModelSettings): ModelSettings {
  return {
    allowed_models: settings.allowed_models,
    model_aliases: settings.model_aliases,
    per_model_max_tokens: settings.per_model_max_tokens,
    default_embedding_model: settings.default_embedding_model,
    pricing: settings.pricing,
  };
}

/** `GET /internal/models` answer: the settings in force and where they come from. */
export const modelSettingsViewSchema = modelSettingsSchema.extend({
  source: z.enum(['config', 'database']),
  updated_at: z.string().nullable(),
  /** The provider each allowed model routes to (`owned_by` of `/v1/models`). */
  providers: z.record(z.string(), z.string()),
  /**
   * Where each allowed model's shared limits stand (`limits.models` of the configuration file, shared by
   * every caller); a model without any is left out.
   */
  model_limits: z.record(z.string(), z.array(limitStatusSchema)),
  /**
   * The allowed models whose requests cost $0 (no price under their name, nor under the upstream model
   * of a paid deployment serving them): dollar budgets do not count them.
   */
  unpriced_models: z.array(z.string()),
});
/** Model settings as shown by the admin API. */
export type PricedModelSettingsView = z.infer<typeof modelSettingsViewSchema>;
/** The model settings view without the prices (`/internal/models` adds those beside it). */
export type ModelSettingsView = Omit<PricedModelSettingsView, 'pricing' | 'unpriced_models'>;

/** `PUT /internal/models` body: omitted fields keep their current value; `reset: true` returns to the configuration file. */
export const modelSettingsUpdateSchema = modelSettingsSchema
  .partial()
  .extend({ reset: z.boolean().optional() })
  .strict();
/** Body of a model settings update. */
export type ModelSettingsUpdate = z.infer<typeof modelSettingsUpdateSchema>;

/**
 * Words of a query parameter's name that mark a credential (`?key=`, `?api-key=`, `?accessToken=`, a
 * signed URL's `sig` or `X-Amz-Signature`); names are split at `-`, `_`, `.` and camelCase.
 */
const CREDENTIAL_WORDS = new Set([
  'key',
  'apikey',
  'token',
  'secret',
  'password',
  'passwd',
  'pwd',
  'sig',
  'signature',
  'credential',
  'credentials',
]);
/** Whole names that are credentials, though as words they are not (`?country_code=` is no secret). */
const CREDENTIAL_NAMES = new Set(['code', 'auth', 'authorization']);

/** Whether a query parameter of a base URL is named like a credential. */
export function isCredentialParameter(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  return CREDENTIAL_NAMES.has(name.toLowerCase()) || words.some((word) => CREDENTIAL_WORDS.has(word));
}

/** What a masked credential reads as in a shown address. */
const MASK = '****';

/** `text` percent-decoded, or as it is when an escape does not decode. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A path with every key-shaped piece (the relayed-error redactor's shapes) masked, decoded first so an escape hides none. */
function pathWithoutKeys(pathname: string): string {
  const plain = decoded(pathname);
  return holdsSecret(plain) ? redactSecrets(plain).replaceAll(REDACTED, MASK) : pathname;
}

/**
 * An address as the admin API and the UI show it: no `user:password@`, the value of a query
 * parameter named like a credential replaced by `****`, and so is a key-shaped value in the path or
 * the query (a list saved before such addresses were refused may still hold one).
 */
export function withoutCredentials(address: string): string {
  try {
    const url = new URL(address);
    const secrets = [...url.searchParams].filter(
      ([name, value]) => isCredentialParameter(name) || holdsSecret(name) || holdsSecret(value),
    );
    const path = pathWithoutKeys(url.pathname);
    const clean = url.username === '' && url.password === '' && url.hash === '';
    if (clean && secrets.length === 0 && path === url.pathname) return address;
    url.username = '';
    url.password = '';
    // A fragment is never sent, but may hold what was meant as a query.
    url.hash = '';
    url.pathname = path;
    for (const [name] of secrets) {
      if (holdsSecret(name)) url.searchParams.delete(name);
      else url.searchParams.set(name, MASK);
    }
    return url.href;
  } catch {
    // Unparsable, yet it may still hold credentials before an `@`, or in its query.
    return redactSecrets(
      address.replace(/^([A-Za-z][A-Za-z0-9+.-]*:[/\\]*)[^/\\?#]*@/, '$1').replace(/\?.*$/s, ''),
    ).replaceAll(REDACTED, MASK);
  }
}

/**
 * Why a provider base URL is refused, or undefined. Only http(s): nothing else can carry the calls.
 * No credentials, neither `user:password@`, nor a query parameter named like one (`?key=`,
 * `?access_token=`), nor a key-shaped value in the path or the query (`sk-...`, `AIza...`): the
 * address is shown by the admin API and the UI, so a secret in it would leak there, and keys belong
 * in `api_key`. The messages never echo the userinfo, the query or a key.
 */
export function baseUrlProblem(address: string): string | undefined {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return 'must be an absolute http:// or https:// URL';
  }
  // Scheme, host and path only (any key in the path masked): a query string may hold a token too.
  const shown = `${url.protocol}//${url.host}${pathWithoutKeys(url.pathname)}`;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    // Without a host (`javascript:alert(1)`), the parsed form is not what was sent: quote the scheme as sent.
    const sent = address.trimStart();
    const got =
      url.host === ''
        ? `the scheme '${sent.slice(0, Math.min(sent.indexOf(':') + 1, 40))}'`
        : `'${shown.slice(0, 200)}'`;
    return `must be an http:// or https:// URL, got ${got}`;
  }
  if (url.username !== '' || url.password !== '') {
    return `must not contain credentials (user:password@), got ${shown}; put the key in api_key`;
  }
  const secret = [...url.searchParams.keys()].find(isCredentialParameter);
  if (secret !== undefined) {
    return `must not carry a credential in its query (${secret.slice(0, 60)}=...), got ${shown}; put the key in api_key`;
  }
  const keyShaped = [...url.searchParams].find(([name, value]) => holdsSecret(name) || holdsSecret(value));
  if (keyShaped !== undefined) {
    const what = holdsSecret(keyShaped[0])
      ? 'a parameter whose name looks like a key'
      : `${keyShaped[0].slice(0, 60)}=${MASK} looks like a key`;
    return `must not carry a credential in its query (${what}), got ${shown}; put the key in api_key`;
  }
  if (holdsSecret(decoded(url.pathname))) {
    return `must not carry a credential in its path (${MASK} looks like a key), got ${shown}; put the key in api_key`;
  }
  return undefined;
}

/** Capabilities a deployment can declare; a request needing one it lacks goes to another deployment. */
export const CAPABILITIES = [
  'responses',
  'streaming',
  'vision',
  'reasoning',
  'structured_outputs',
  'stateful',
  'tools',
] as const;

/** One declared capability: a known name, or `tool:<hosted tool type>` (`tool:web_search_preview`). */
export const capabilitySchema = z
  .string()
  .refine((value) => (CAPABILITIES as readonly string[]).includes(value) || /^tool:[A-Za-z0-9_.-]+$/.test(value), {
    message: `must be one of ${CAPABILITIES.join(', ')} or tool:<hosted tool type>`,
  });

/** The longest delay a Node timer keeps (2^31 - 1 ms, some 24.8 days); a longer one fires at once. */
export const MAX_TIMER_MS = 2_147_483_647;

/** A duration in milliseconds that a timer waits for: positive, and no longer than a timer can wait. */
export const timerMsSchema = z
  .number()
  .int()
  .positive()
  .max(MAX_TIMER_MS, `must be at most ${MAX_TIMER_MS} ms (some 24.8 days), the longest a timer can wait`);

/** A provider base URL (see {@link baseUrlProblem}); custom issues, so validators never add the value. */
export const baseUrlSchema = z.string().superRefine((address, ctx) => {
  const problem = baseUrlProblem(address);
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
});

/**
 * A deployment's id, in the configuration file and the admin API alike (one the file accepts must
 * save back unchanged from the UI). `#` included: ids the gateway generates (`model#2`) round-trip.
 */
export const deploymentIdSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9._:/#-]+$/, 'id may hold letters, digits and . _ : / # -');

/** What a deployment view shows that an input leaves out: read-only, or null for "not set". */
const VIEW_ONLY = ['api_key_set'] as const;
const NULL_WHEN_UNSET = ['base_url', 'api_key_env', 'capabilities'] as const;

/**
 * A deployment as `GET /internal/deployments` shows it, read as an input: its read-only `api_key_set`
 * left out and its nulls read as unset, so a list read, edited and sent back is accepted as it is.
 */
function viewAsInput(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const input: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const field of VIEW_ONLY) delete input[field];
  for (const field of NULL_WHEN_UNSET) if (input[field] === null) delete input[field];
  return input;
}

const deploymentFields = z
  .object({
    id: deploymentIdSchema.optional(),
    model: z.string().min(1),
    provider: z.string().min(1).optional(),
    upstream_model: z.string().min(1).optional(),
    base_url: baseUrlSchema.optional(),
    /** Write-only; omit on update to keep the key already stored for this id, null to clear it. */
    api_key: z.string().min(1).nullable().optional(),
    /** The NAME of an environment variable holding the key (shown back in the clear, so never a key). */
    api_key_env: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'api_key_env must be an environment variable name, like OPENAI_API_KEY')
      .refine((name) => !looksLikeSecret(name), `api_key_env ${SECRET_NOT_NAME}`)
      .optional(),
    /** Azure's `api-version` query parameter; with it, calls use Azure's per-deployment paths. */
    api_version: z.string().min(1).optional(),
    responses_api: z.enum(['native', 'translate']).optional(),
    weight: z.number().positive().optional(),
    timeout_ms: timerMsSchema.optional(),
    max_retries: z.number().int().min(0).max(10).optional(),
    capabilities: z.array(capabilitySchema).optional(),
  })
  .strict();
/** A deployment as written by the admin: `api_key` is write-only. */
export const deploymentInputSchema = z.preprocess(viewAsInput, deploymentFields);
/** One deployment to write. */
export type DeploymentInput = z.infer<typeof deploymentInputSchema>;

/** How `POST /internal/deployments/test` checks a deployment: its model list (free), or a 1-token chat. */
export const deploymentTestModeSchema = z.enum(['models', 'chat']);
/** A connection test's kind of check. */
export type DeploymentTestMode = z.infer<typeof deploymentTestModeSchema>;

/**
 * `POST /internal/deployments/test` body: one deployment as `PUT /internal/deployments` takes it (an
 * unsaved form; sent with a saved id and no key, it is tested with the key stored for that id at the
 * same address), or only `{"id"}` to test a saved one as it is; `mode` asks for a chat instead of the
 * model list.
 */
export const deploymentTestSchema = z
  .preprocess(
    viewAsInput,
    deploymentFields.extend({ model: z.string().min(1).optional(), mode: deploymentTestModeSchema.optional() }),
  )
  .refine((body) => body.model !== undefined || body.id !== undefined, {
    message: 'model is required (or send only the id of a saved deployment to test it as saved)',
    path: ['model'],
  });
/** Body of a connection test. */
export type DeploymentTest = z.infer<typeof deploymentTestSchema>;

/** What a connection test found; `status` is the upstream's HTTP status, null when none answered. */
export const deploymentTestResultSchema = z.object({
  ok: z.boolean(),
  status: z.number().int().nullable(),
  latency_ms: z.number(),
  /** Whether the provider's model list names the deployment's upstream model; null when no list was read. */
  model_listed: z.boolean().nullable(),
  /** The check that was made (`models` falls back to `chat` where the provider lists no models). */
  mode: deploymentTestModeSchema,
  /** What was found, worded for the user: the address, the key, the model; provider text redacted. */
  message: z.string(),
});
/** A connection test's answer. */
export type DeploymentTestResult = z.infer<typeof deploymentTestResultSchema>;

/** `PUT /internal/deployments` body: the whole list (or `reset: true` to return to the configuration file). */
export const deploymentsUpdateSchema = z
  .object({
    deployments: z.array(deploymentInputSchema).optional(),
    reset: z.boolean().optional(),
  })
  .strict()
  .refine((body) => body.deployments !== undefined || body.reset === true, {
    message: 'send deployments (the whole list) or reset: true',
  });
/** Body of a deployments update. */
export type DeploymentsUpdate = z.infer<typeof deploymentsUpdateSchema>;

/** A deployment as the admin API shows it. */
export const deploymentViewSchema = z.object({
  id: z.string(),
  model: z.string(),
  provider: z.string(),
  upstream_model: z.string(),
  base_url: z.string().nullable(),
  api_key_set: z.boolean(),
  api_key_env: z.string().nullable(),
  api_version: z.string().optional(),
  responses_api: z.enum(['native', 'translate']).optional(),
  weight: z.number(),
  timeout_ms: z.number(),
  max_retries: z.number(),
  capabilities: z.array(z.string()).nullable(),
});
/** A deployment. */
export type DeploymentView = z.infer<typeof deploymentViewSchema>;

/** What a deployment that sets no `timeout_ms` or `max_retries` of its own gets. */
export const deploymentDefaultsSchema = z.object({ timeout_ms: z.number(), max_retries: z.number() });
/** The gateway's defaults for a deployment's own settings. */
export type DeploymentDefaults = z.infer<typeof deploymentDefaultsSchema>;

/** `GET /internal/deployments` answer. */
export const deploymentListSchema = z.object({
  source: z.enum(['config', 'database']),
  updated_at: z.string().nullable(),
  defaults: deploymentDefaultsSchema,
  data: z.array(deploymentViewSchema),
});
/** The deployments in force. */
export type DeploymentList = z.infer<typeof deploymentListSchema>;

/** Health of one deployment, from the requests routed to it since the start. */
export const deploymentHealthSchema = z.object({
  id: z.string(),
  model: z.string(),
  provider: z.string(),
  /**
   * `healthy`, `degraded` (recent failures), `cooling_down` (tried last until `cooldown_until`) or
   * `unused` (no call has answered or failed yet).
   */
  state: z.enum(['healthy', 'degraded', 'cooling_down', 'unused']),
  /** Every upstream call, retries included; one its client left counts here, as neither success nor failure. */
  requests: z.number(),
  successes: z.number(),
  failures: z.number(),
  consecutive_failures: z.number(),
  last_status: z.number().nullable(),
  last_error: z.string().nullable(),
  last_used_at: z.string().nullable(),
  /** When it last answered; null when it never has since the start (or since a save changed its upstream). */
  last_success_at: z.string().nullable().optional(),
  /** When its current run of failures in a row began (the first of `consecutive_failures`); null while it answers. */
  failing_since: z.string().nullable().optional(),
  last_latency_ms: z.number().nullable(),
  avg_latency_ms: z.number().nullable(),
  cooldown_until: z.string().nullable(),
  /** Attempts a request's deadline (`x-gatehouse-timeout-ms`) ended before the deployment answered. */
  deadline_cuts: z.number(),
  last_deadline_cut_at: z.string().nullable(),
});
/** Health of a deployment. */
export type DeploymentHealth = z.infer<typeof deploymentHealthSchema>;

/** `GET /internal/deployments/health` answer. */
export const deploymentHealthListSchema = z.object({ data: z.array(deploymentHealthSchema) });

/** The last millisecond of year 9999, the latest time an ISO-8601 date-time can write. */
export const MAX_TIME_MS = 253_402_300_799_999;

/**
 * Time given as ISO-8601 (a time, or a date meaning its midnight UTC) or Unix milliseconds, up to the end
 * of year 9999 (beyond, no date can show it).
 */
const timeParam = z
  .union([z.iso.datetime({ offset: true }), z.iso.date(), z.string().regex(/^\d+$/)], {
    error: (issue) => queryTimeMessage(issue.input),
  })
  .refine((value) => !/^\d+$/.test(value) || Number(value) <= MAX_TIME_MS, {
    error: (issue) => `must be at most ${MAX_TIME_MS} (the end of year 9999), got '${String(issue.input)}'`,
  });

/** What usage can be grouped by: a deployment is the one that answered (after any retries and fallbacks). */
const usageGroupBySchema = z.enum(['model', 'key', 'user', 'team', 'deployment', 'provider', 'none']);

/**
 * What a usage row records: a request to an endpoint, or an embeddings call of RAG's own (a request's
 * query, booked to its key; indexing, booked to no key). Another name would match none, so a filter
 * refuses it by name.
 */
const usageEndpointSchema = z.enum([
  'chat',
  'messages',
  'count_tokens',
  'responses',
  'embeddings',
  'rag_query_embedding',
  'rag_index_embedding',
]);

/** `GET /internal/usage` query: `since` defaults to 24 hours ago, `until` to now. */
export const usageQuerySchema = queryParams({
  group_by: usageGroupBySchema.default('model'),
  bucket: z.enum(['minute', 'hour', 'day']).default('hour'),
  since: timeParam.optional(),
  until: timeParam.optional(),
  key_id: queryFilter.optional(),
  model: queryFilter.optional(),
  user: principalFilter.optional(),
  team: principalFilter.optional(),
  endpoint: usageEndpointSchema.optional(),
});
/** Usage aggregation query. */
export type UsageQuery = z.infer<typeof usageQuerySchema>;

const usageTotalsSchema = z.object({
  requests: z.number(),
  /** Requests answered with an error, those the limits refused included. */
  errors: z.number(),
  /**
   * Of `errors`, the requests the rate limits and budgets refused (their 429, before any provider was
   * called). The gateway always sends it; optional for the UI's series built before it existed.
   */
  refused: z.number().optional(),
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
  total_tokens: z.number(),
  /** Of `prompt_tokens`, those providers read from their prompt caches (billed lower), as far as they said. */
  cache_read_prompt_tokens: z.number(),
  /** Of `prompt_tokens`, those providers wrote to their prompt caches (Anthropic bills them higher). */
  cache_write_prompt_tokens: z.number(),
  /** Of `completion_tokens`, those models spent reasoning, as far as providers said. */
  reasoning_tokens: z.number(),
  cost_usd: z.number(),
  /** Over the requests that called an upstream: cache hits, answered from memory, are left out. */
  avg_latency_ms: z.number().nullable(),
  /**
   * Of `requests`, those the response cache answered (no upstream call, no cost). This and the next
   * three: the gateway always sends them; optional for the UI's series built before they existed.
   */
  cache_hits: z.number().optional(),
  /** Of `requests`, those the response cache looked up and found no answer for (the hit rate's other half). */
  cache_misses: z.number().optional(),
  /** The tokens (prompt and completion) the cache hits' kept answers had cost, which the hits did not spend again. */
  saved_tokens: z.number().optional(),
  /** What those kept answers cost at the prices of each hit's time. */
  saved_cost_usd: z.number().optional(),
});

/** One point of a usage series: a time bucket for one group (model, key, user, team, deployment or provider). */
export const usagePointSchema = usageTotalsSchema.extend({
  bucket_start: z.string(),
  group: z.string().nullable(),
  /** The key's name, when grouping by key. */
  label: z.string().nullable(),
});
/** A usage point. */
export type UsagePoint = z.infer<typeof usagePointSchema>;

/**
 * On a usage read, the answered requests whose rows could not be written before it (another process
 * holds the database's write lock, or the disk is full or read-only): they wait in memory and are not
 * in the figures yet. Absent when every row is in.
 */
const usagePendingFields = {
  pending_rows: z.number().int().optional(),
  pending_reason: z.enum(['locked', 'unwritable']).optional(),
};

/** `GET /internal/usage` answer. */
export const usageResponseSchema = z.object({
  group_by: usageGroupBySchema,
  bucket: z.enum(['minute', 'hour', 'day']),
  since: z.string(),
  until: z.string(),
  data: z.array(usagePointSchema),
  totals: usageTotalsSchema,
  ...usagePendingFields,
});
/** A usage aggregation. */
export type UsageResponse = z.infer<typeof usageResponseSchema>;

/** One usage row (`GET /internal/usage/logs`). */
export const usageRowSchema = z.object({
  id: z.number(),
  request_id: z.string(),
  created_at: z.string(),
  key_id: z.string().nullable(),
  user: z.string().nullable(),
  team: z.string().nullable(),
  endpoint: z.string(),
  model: z.string().nullable(),
  /** The model as the client named it (an alias, or a name refused before it resolved), as in the traffic view. */
  requested_model: z.string().nullable(),
  deployment: z.string().nullable(),
  provider: z.string().nullable(),
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
  /** Of `prompt_tokens`, read from the provider's prompt cache; null when the provider did not say. */
  cache_read_prompt_tokens: z.number().nullable(),
  /** Of `prompt_tokens`, written to the provider's prompt cache; null when the provider did not say. */
  cache_write_prompt_tokens: z.number().nullable(),
  /** Of `completion_tokens`, spent reasoning; null when the provider did not say. */
  reasoning_tokens: z.number().nullable(),
  cost_usd: z.number(),
  latency_ms: z.number(),
  status: z.number(),
  error_type: z.string().nullable(),
  stream: z.boolean(),
  cached: z.boolean(),
  /** Of a RAG embedding row (`rag_query_embedding`, `rag_index_embedding`): the collections it served, comma-separated. */
  rag_collections: z.string().nullable(),
  /** The request's OpenTelemetry trace, when its spans were recorded (exported); null otherwise and on rows written before. */
  trace_id: z.string().nullable(),
  /** Upstream calls made, retries and fallbacks included (0: answered without one); null on rows written before. */
  attempts: z.number().nullable(),
  /** The token counts are the gateway's estimate, not the provider's report (a client that left, a stream cut before its usage). */
  tokens_estimated: z.boolean(),
  /** What the response cache did (`hit`, `miss`, `bypass`, `refresh`); null when it did not consider the request or on rows written before. */
  cache_status: z.enum(['hit', 'miss', 'bypass', 'refresh']).nullable(),
  /** Of a cache hit: the kept answer's prompt and completion tokens, which the hit did not spend again; null on other rows. */
  saved_prompt_tokens: z.number().nullable(),
  saved_completion_tokens: z.number().nullable(),
  /** Of a cache hit: what the kept answer's usage costs at the prices of the hit's time (the hit's own cost is 0). */
  saved_cost_usd: z.number().nullable(),
  /** Of a cache hit: the kept answer's age in whole seconds (the `Age` header it was sent with). */
  cache_age_s: z.number().nullable(),
});
/** A usage row. */
export type UsageRow = z.infer<typeof usageRowSchema>;

/** How many items one page of an admin list holds: 1 to 1000, 100 unless asked. */
export const pageLimitSchema = queryInteger(1, 1000).default(100);

/** Paging of newest-first lists: `before` is the id of the last item seen (the previous `next_cursor`). */
const pageQuery = {
  limit: pageLimitSchema,
  before: queryInteger(1).optional(),
  /** A time range, as `/internal/usage` takes it: ISO-8601 or Unix milliseconds, `until` excluded. */
  since: timeParam.optional(),
  until: timeParam.optional(),
};

/** A page of items with the cursor of the next page (null on the last). */
const pageOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), next_cursor: z.number().nullable() });

/** The most rows one CSV export of the usage log holds: past it, the export is cut and says where to go on. */
export const USAGE_EXPORT_MAX_ROWS = 100_000;

/** `GET /internal/usage/logs` query. */
export const usageLogsQuerySchema = queryParams({
  ...pageQuery,
  key_id: queryFilter.optional(),
  model: queryFilter.optional(),
  request_id: queryFilter.optional(),
  endpoint: usageEndpointSchema.optional(),
  /** The HTTP status answered (499: the client left). */
  status: queryInteger(100, 599).optional(),
  /** An error type (`upstream_error`, `rate_limit_exceeded`, ...), a stream that failed after its 200 included. */
  error_type: queryFilter.optional(),
  user: principalFilter.optional(),
  team: principalFilter.optional(),
  /** `csv`: every matching row as a CSV file (as `Accept: text/csv` asks), not one page of JSON. */
  format: z.enum(['json', 'csv']).optional(),
  /** Of a CSV export, the most rows it holds (at most and by default {@link USAGE_EXPORT_MAX_ROWS}). */
  max_rows: queryInteger(1, USAGE_EXPORT_MAX_ROWS).optional(),
});

/** `GET /internal/usage/logs` answer. */
export const usageLogsSchema = pageOf(usageRowSchema).extend(usagePendingFields);

/** An audit event. */
export const auditEventSchema = z.object({
  id: z.number(),
  created_at: z.string(),
  actor: z.string(),
  action: z.string(),
  target: z.string().nullable(),
  request_id: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
  /** The admin client a change came from; null for inference and sign-in events, and events recorded before. */
  client_address: z.string().nullable(),
  user_agent: z.string().nullable(),
  /** Who the caller said made the change: its `x-gatehouse-changed-by` header. */
  changed_by: z.string().nullable(),
});
/** An audit event. */
export type AuditEvent = z.infer<typeof auditEventSchema>;

/** Every action the audit trail records (docs/gateway.md lists what each one's details hold). */
export const AUDIT_ACTIONS = [
  'api_key.create',
  'api_key.update',
  'api_key.rotate',
  'api_key.revoke',
  'models.update',
  'models.reset',
  'deployments.update',
  'deployments.reset',
  'deployments.test',
  'team.create',
  'team.update',
  'team.delete',
  'user.create',
  'user.update',
  'user.delete',
  'pii.update',
  'pii.reset',
  'content_policy.update',
  'content_policy.reset',
  'cache.update',
  'cache.reset',
  'cache.purge',
  'rag.collection.create',
  'rag.collection.update',
  'rag.collection.delete',
  'rag.collection.sync',
  'rag.document.put',
  'rag.document.delete',
  'sso.sign_in.refuse',
  'sso.user.bind',
  'sso.session.end',
  'embeddings.create',
] as const;

/**
 * The actions an audit `action` filter names: one action, or every action under a prefix (`api_key.*`).
 * Anything else is refused, listing the actions: a misspelt filter would answer an empty list that
 * reads as "this never happened".
 */
const auditActionFilter = queryFilter.transform((sent, ctx): readonly string[] => {
  const matched = sent.endsWith('.*')
    ? AUDIT_ACTIONS.filter((action) => action.startsWith(sent.slice(0, -1)))
    : AUDIT_ACTIONS.filter((action) => action === sent);
  if (matched.length === 0)
    ctx.addIssue({
      code: 'custom',
      message: `must be an audit action (${AUDIT_ACTIONS.join(', ')}) or a prefix of them such as api_key.*, got '${sent.slice(0, 100)}'`,
    });
  return matched;
});

/** `GET /internal/audit` query. */
export const auditQuerySchema = queryParams({
  ...pageQuery,
  /** One action (`api_key.create`), or all under a prefix (`api_key.*`, `rag.collection.*`). */
  action: auditActionFilter.optional(),
  /** What an event changed (a key, user or team id, a model), as its `target` names it. */
  target: principalFilter.optional(),
  /** Who acted: `master`, `key:<id>`, `passthrough`, `sso:<provider>`. */
  actor: queryFilter.optional(),
});

/** `GET /internal/audit` answer. */
export const auditListSchema = pageOf(auditEventSchema);

/** One request as the traffic view shows it: bodies as received with the gateway's rewrites, never credentials. */
export const trafficEventSchema = z.object({
  seq: z.number(),
  request_id: z.string(),
  started_at: z.string(),
  endpoint: z.string(),
  method: z.string(),
  path: z.string(),
  status: z.number(),
  error_type: z.string().nullable(),
  requested_model: z.string().nullable(),
  model: z.string().nullable(),
  deployment: z.string().nullable(),
  provider: z.string().nullable(),
  key_id: z.string().nullable(),
  key_name: z.string().nullable(),
  user: z.string().nullable(),
  team: z.string().nullable(),
  stream: z.boolean(),
  cached: z.boolean(),
  attempts: z.number(),
  /** What the limits stage reserved: the prompt as its tokenizer counted it (an estimate for models whose tokenizer is not public) and the whole reservation. */
  limits: z
    .object({ prompt_tokens: z.number(), estimated: z.boolean(), reserved_tokens: z.number() })
    .nullable()
    .optional(),
  latency_ms: z.number(),
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
  /** Of `prompt_tokens`, read from / written to the provider's prompt cache; of `completion_tokens`, spent reasoning. Null when the provider did not say. */
  cache_read_prompt_tokens: z.number().nullable().optional(),
  cache_write_prompt_tokens: z.number().nullable().optional(),
  reasoning_tokens: z.number().nullable().optional(),
  cost_usd: z.number(),
  /** Citations (`<collection>:<chunk id>`) of the RAG chunks put into the request; null when RAG did not run. */
  rag_chunks: z.array(z.string()).nullable().optional(),
  /** What the PII and content-policy stages did (entities by type, a refusal's reason; never a value found). */
  guardrails: guardrailsOutcomeSchema.nullable().optional(),
  /** What the response cache did: answered (`hit`), missed, or was skipped by the request's Cache-Control (`bypass`); null when it did not apply. */
  cache: z.enum(['hit', 'miss', 'bypass']).nullable().optional(),
  /** The OpenTelemetry trace of the request, when tracing is on. */
  trace_id: z.string().nullable().optional(),
  /** The limit a limits-stage 429 names (`team_daily`, ...), read from its answer: kept without bodies too, for filtering. */
  limit_type: z.string().nullable().optional(),
  /** The request body as received, with the pipeline's rewrites (`model`, a capped `max_tokens`, PII placeholders; JSON), truncated past the buffer's per-body limit. */
  request_body: z.unknown().nullable(),
  /** The response body (JSON), or the SSE text of a stream, truncated likewise. */
  response_body: z.unknown().nullable(),
  truncated: z.boolean(),
});
/** A traffic event. */
export type TrafficEvent = z.infer<typeof trafficEventSchema>;

/** `GET /internal/traffic` query: newest first; `after` returns only events with a larger `seq`. */
export const trafficQuerySchema = queryParams({
  limit: queryInteger(1, 10_000).default(100),
  after: queryInteger(0).optional(),
  bodies: z.enum(['true', 'false']).default('true'),
});

/**
 * `GET /internal/traffic/stream` query: `after` replays the buffered events with a larger `seq`;
 * `bodies=false` sends events without their bodies (`request_body` and `response_body` null), as the UI's list does.
 */
export const trafficStreamQuerySchema = queryParams({
  after: queryInteger(0).optional(),
  bodies: z.enum(['true', 'false']).default('true'),
});

/** `GET /internal/traffic/<seq>` path: one held request, with its bodies. */
export const trafficEventParamsSchema = z.object({ seq: queryInteger(0) });

/** `GET /internal/traffic` answer. */
export const trafficListSchema = z.object({
  data: z.array(trafficEventSchema),
  /** Without `after`: older events are held beyond the page; with it, newer ones wait after the page. */
  has_more: z.boolean(),
  capacity: z.number(),
  last_seq: z.number(),
  /** With `after`: requests after it the buffer dropped before this page's first event (a poller that fell behind). */
  missed: z.number().int().nonnegative(),
});

/**
 * `event: gap` of the traffic stream: `missed` requests after `after` (the last one the client had)
 * were dropped from the gateway's buffer before `next_seq`, the event that follows.
 */
export const trafficGapSchema = z.object({
  after: z.number(),
  next_seq: z.number(),
  missed: z.number().int().nonnegative(),
});
/** A gap in a resumed traffic stream. */
export type TrafficGap = z.infer<typeof trafficGapSchema>;

/**
 * Messages of `GET /internal/traffic/stream` (SSE): `event: traffic` carries a {@link TrafficEvent}
 * (its `seq` is the SSE id, so `Last-Event-ID` resumes), `event: invalidate` tells the UI which
 * admin resource changed.
 */
export const invalidateMessageSchema = z.object({
  topic: z.enum(['api-keys', 'users', 'teams', 'models', 'deployments', 'usage', 'audit', 'guardrails', 'cache']),
  ids: z.array(z.string()),
});
/** An invalidation message. */
export type InvalidateMessage = z.infer<typeof invalidateMessageSchema>;
