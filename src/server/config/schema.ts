import { z } from 'zod';
import { looksLikeSecret, SECRET_NOT_NAME } from '../../shared/variable-name.js';
import { CONNECTION_DEFAULTS } from '../http/connection-settings.js';
import { limitsSchema } from './limits-schema.js';
import { modelRuleIssues } from './model-rules-check.js';
import {
  allowedModelNameSchema,
  baseUrlSchema,
  capabilitySchema,
  deploymentIdSchema,
  modelPriceSchema,
  timerMsSchema,
} from '../../shared/gateway-api.js';
import { BRANCH_PATTERN, MAX_NAME_LENGTH, NAMESPACE_PATTERN } from '../../shared/store-api.js';
import { BEARER_SECRET_PATTERN, BEARER_SECRET_RULE, MIN_SECRET_LENGTH } from './bearer-secret.js';
import { contentPolicySettingsSchema, piiSettingsSchema } from '../../shared/guardrails-api.js';
import { ssoSchema } from './sso-schema.js';
import { cacheConfigSchema } from '../gateway/cache/cache-config.js';
import { telemetryConfigSchema } from '../gateway/telemetry/telemetry-config.js';
import { aliasIssues } from '../gateway/model-registry/alias-check.js';
import { modelSettingIssues } from '../gateway/model-registry/model-settings-check.js';
import { KNOWN_PROVIDERS } from '../gateway/providers/provider-settings.js';
import { closestName } from '../../shared/closest-name.js';

const port = z.number().int().min(0).max(65535);
const positiveInt = z.number().int().positive();

/** A web origin pages may call the model API from (`server.cors_origins`), or `*` for any. */
const corsOrigin = z.string().refine((value) => value === '*' || isOrigin(value), {
  message: "must be an origin such as http://localhost:3000 (scheme, host and port only, no path), or '*'",
});

function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value;
  } catch {
    return false;
  }
}

/** A name the servers answer besides IP addresses and localhost: no scheme, no port, no wildcard. */
const allowedHost = z
  .string()
  .regex(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*\.?$/, 'must be a host name such as gatehouse.lan, without scheme or port');

/**
 * The bind address of both servers: an address or a name, without the port or scheme of a URL
 * (`127.0.0.1:80` and `http://0.0.0.0` would fail at listen as a name that does not resolve). An IPv6
 * literal has two colons or more, so one colon is a port.
 */
const bindHost = z
  .string()
  .min(1)
  .refine((host) => !/[/[\]]/.test(host) && host.split(':').length !== 2, {
    message:
      'must be an address or host name only, such as 127.0.0.1, 0.0.0.0 or ::1: the host takes no port or scheme (the ports are server.gateway_port and server.store_port, or GATEWAY_PORT and STORE_PORT)',
  });

/** The name of an environment variable that holds a provider key. */
const envVariableName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name, like OPENAI_API_KEY')
  .refine((name) => !looksLikeSecret(name), SECRET_NOT_NAME);

/** `os.environ/NAME`, `${NAME}` or `$NAME`: how other tools' files name a variable for a key. */
const VARIABLE_REFERENCE = /^(?:os\.environ\/|\$\{|\$)([A-Za-z_][A-Za-z0-9_]*)\}?$/;

/**
 * A key as written. One written as a reference to a variable would be sent as that text: the file
 * names variables in `api_key_env` instead (nothing in it is expanded).
 */
const apiKey = z
  .string()
  .min(1)
  .superRefine((value, ctx) => {
    const match = VARIABLE_REFERENCE.exec(value.trim());
    if (match === null || (value.trim().startsWith('${') && !value.trim().endsWith('}'))) return;
    ctx.addIssue({
      code: 'custom',
      message: `names the variable ${match[1]}, but api_key is sent as written; put the name in api_key_env: ${match[1]}`,
    });
  });

/** One upstream serving a public model name. */
export const deploymentSchema = z
  .object({
    id: deploymentIdSchema.optional(),
    model: z.string().min(1),
    provider: z.string().min(1).optional(),
    upstream_model: z.string().min(1).optional(),
    base_url: baseUrlSchema.optional(),
    api_key: apiKey.optional(),
    // Shown back by the admin API and the UI: a name, never a key pasted into the wrong field.
    api_key_env: envVariableName.optional(),
    // Azure only: calls go to <base_url>/openai/deployments/<upstream_model>/...?api-version=<api_version>.
    api_version: z.string().min(1).optional(),
    // How /v1/responses reaches it: the provider's own Responses API, or translated to its chat API.
    responses_api: z.enum(['native', 'translate']).optional(),
    weight: z.number().positive().default(1),
    // Unset means the provider layer's one default (DEFAULT_TIMEOUT_MS, 600 s).
    timeout_ms: timerMsSchema.optional(),
    // Unset means gateway.max_retries.
    max_retries: z.number().int().min(0).max(10).optional(),
    capabilities: z.array(capabilitySchema).optional(),
  })
  .strict();

const providerSchema = z
  .object({
    base_url: baseUrlSchema.optional(),
    api_key: apiKey.optional(),
  })
  .strict();

/**
 * A grant's namespace: `*`, a subtree (`team/*`) or one namespace. Anything else (`team/**`, `/team`,
 * `team*`) would match no namespace a request can name, and the token would silently reach nothing.
 */
const namespacePattern = z
  .string()
  .max(MAX_NAME_LENGTH + 2)
  .refine(
    (pattern) => pattern === '*' || NAMESPACE_PATTERN.test(pattern.endsWith('/*') ? pattern.slice(0, -2) : pattern),
    {
      message: 'must be "*", a namespace such as team/app, or a subtree such as team/*',
    },
  );

/**
 * A grant's branch: `*`, one branch, or a prefix ending in `*` (`agent-*`). Anything else (`*-agent`,
 * `agent-**`, a space) would match no branch a request can name, and the token could change none.
 */
const branchPattern = z
  .string()
  .max(MAX_NAME_LENGTH + 1)
  .refine((pattern) => pattern === '*' || BRANCH_PATTERN.test(pattern.endsWith('*') ? pattern.slice(0, -1) : pattern), {
    error: (issue) => `${JSON.stringify(issue.input)} must be "*", a branch such as main, or a prefix such as agent-*`,
  });

const storeTokenSchema = z
  .object({
    name: z.string().min(1).optional(),
    token: z
      .string()
      .min(MIN_SECRET_LENGTH, `store token must be at least ${MIN_SECRET_LENGTH} characters`)
      .regex(BEARER_SECRET_PATTERN, `store token must hold ${BEARER_SECRET_RULE}`)
      .optional(),
    token_env: z
      .string()
      .min(1)
      .refine((name) => !looksLikeSecret(name), SECRET_NOT_NAME)
      .optional(),
    // No defaults: an entry written for one agent or job must not quietly grant everything.
    verbs: z
      .array(z.enum(['read', 'write', 'admin']), {
        error: (issue) =>
          issue.input === undefined
            ? 'is required: list what the token may do, such as [read] or [read, write] (admin adds gc and branch deletion)'
            : undefined,
      })
      .min(1),
    namespaces: z.array(namespacePattern, {
      error: (issue) =>
        issue.input === undefined
          ? 'is required: list the namespaces the token may use, such as ["team/*"], or ["*"] for every namespace'
          : undefined,
    }),
    // Optional: left out, the token may change every branch its namespaces hold.
    branches: z
      .array(branchPattern)
      .min(1, 'must list at least one branch pattern, such as ["agent-*"]; leave it out for every branch')
      .optional(),
  })
  .strict()
  .refine((t) => t.token || t.token_env, { message: 'each store token needs token or token_env' });

/** The llm section; accepts camelCase spellings too (normalised before parsing). */
const llmSchema = z
  .object({
    // Listed twice, a model would show twice in /v1/models; the admin API drops repeats too.
    allowed_models: z
      .array(allowedModelNameSchema)
      .default(['demo/echo', 'demo/embed'])
      .transform((models) => [...new Set(models)]),
    model_aliases: z.record(z.string().min(1), z.string().min(1)).default({}),
    per_model_max_tokens: z.record(z.string().min(1), positiveInt).default({}),
    default_embedding_model: z.string().min(1).optional(),
  })
  .strict()
  // The admin API refuses the same aliases: one that cannot work must not start from the file either.
  .superRefine((llm, ctx) => {
    for (const issue of aliasIssues(llm))
      ctx.addIssue({ code: 'custom', path: ['model_aliases', issue.alias], message: issue.problem });
  });

/** The longest total deadline a request may have (`gateway.request_timeout_ms`, `x-gatehouse-timeout-ms`): an hour. */
export const MAX_REQUEST_TIMEOUT_MS = 3_600_000;

/** The whole configuration file, every key optional with a working default. */
export const configSchema = z
  .object({
    server: z
      .object({
        host: bindHost.default('127.0.0.1'),
        gateway_port: port.default(8747),
        store_port: port.default(8748),
        data_dir: z.string().min(1).optional(),
        log_level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
        shutdown_timeout_ms: timerMsSchema.default(10_000),
        ui: z.boolean().default(true),
        request_timeout_ms: timerMsSchema.default(CONNECTION_DEFAULTS.request_timeout_ms),
        headers_timeout_ms: timerMsSchema.default(CONNECTION_DEFAULTS.headers_timeout_ms),
        keep_alive_timeout_ms: timerMsSchema.default(CONNECTION_DEFAULTS.keep_alive_timeout_ms),
        idle_timeout_ms: timerMsSchema.default(CONNECTION_DEFAULTS.idle_timeout_ms),
        max_connections: positiveInt.default(CONNECTION_DEFAULTS.max_connections),
        allowed_hosts: z.array(allowedHost).default([]),
        cors_origins: z.array(corsOrigin).default([]),
        // Both services answer HTTPS with this certificate instead of HTTP (a relative path is read
        // from the configuration file's folder).
        tls: z
          .object({ cert_file: z.string().min(1), key_file: z.string().min(1) })
          .strict()
          .optional(),
      })
      .strict()
      .refine((server) => server.headers_timeout_ms <= server.request_timeout_ms, {
        message: 'headers_timeout_ms must not exceed request_timeout_ms (receiving the request includes its headers)',
        path: ['headers_timeout_ms'],
      })
      .superRefine((server, ctx) => {
        // One port cannot take both listeners: the store's start would be reported as another program's.
        if (server.gateway_port === 0 || server.gateway_port !== server.store_port) return;
        ctx.addIssue({
          code: 'custom',
          message: `store_port must differ from gateway_port (both ${server.store_port}): each service listens on its own port`,
          path: ['store_port'],
        });
      })
      .prefault({}),
    llm: llmSchema.prefault({}),
    responses: z
      .object({
        default_store: z.boolean().default(false),
        // False refuses store: true and previous_response_id for every key (403).
        allow_stateful: z.boolean().default(true),
        // Kept responses older than this are deleted (at start, then hourly); 0 keeps them forever.
        retention_days: z.number().int().min(0).max(3650).default(30),
      })
      .strict()
      .prefault({}),
    allow_passthrough_keys: z.boolean().default(false),
    // A misspelt provider name would be settings no deployment reads: its traffic would go elsewhere.
    providers: z
      .record(z.string(), providerSchema)
      .superRefine((providers, ctx) => {
        for (const name of Object.keys(providers)) {
          if (KNOWN_PROVIDERS.includes(name)) continue;
          const meant = closestName(name, KNOWN_PROVIDERS);
          ctx.addIssue({
            code: 'custom',
            path: [name],
            message: `unknown provider (${meant !== undefined ? `did you mean ${meant}?` : `accepted: ${KNOWN_PROVIDERS.join(', ')}`})`,
          });
        }
      })
      .default({}),
    deployments: z.array(deploymentSchema).default([]),
    pricing: z.record(z.string(), modelPriceSchema).default({}),
    // PII scrubbing and the content policy (docs/pii-and-policy.md); the admin API may override both.
    pii: piiSettingsSchema.prefault({}),
    content_policy: contentPolicySettingsSchema.prefault({}),
    limits: limitsSchema.prefault({}),
    gateway: z
      .object({
        body_limit_bytes: positiveInt.default(32 * 1024 * 1024),
        // Every slot is allocated up front (a few bytes each; the records' text only as it comes).
        traffic_buffer: positiveInt.max(100_000).default(1000),
        // Further attempts on the same deployment after a 429, 5xx, timeout or connection error.
        max_retries: z.number().int().min(0).max(10).default(2),
        // First wait between attempts; it doubles with each retry (with jitter).
        retry_backoff_ms: z.number().int().min(0).max(60_000).default(250),
        // Longest wait honoured from an upstream's Retry-After; a longer ask falls back at once.
        max_retry_wait_ms: z.number().int().min(0).max(300_000).default(10_000),
        // Longest a request may wait for its answer's first byte, across retries, waits and fallbacks;
        // a request's x-gatehouse-timeout-ms overrides it. Unset: no total deadline.
        request_timeout_ms: z.number().int().min(1).max(MAX_REQUEST_TIMEOUT_MS).optional(),
        // The longest deadline a request's x-gatehouse-timeout-ms may set: a larger one is lowered to it.
        max_request_timeout_ms: z.number().int().min(1).max(MAX_REQUEST_TIMEOUT_MS).optional(),
        // Failures in a row after which a deployment is tried last, and for how long (0: never).
        cooldown_after_failures: z.number().int().min(1).max(100).default(3),
        cooldown_ms: z.number().int().min(0).max(3_600_000).default(30_000),
        // Environment variables a deployment set through the admin API may read its key from, besides
        // those the file's own deployments name: the API also sets where that key is sent.
        key_variables: z.array(envVariableName).max(1000).default([]),
        // False: the gateway's /metrics needs the master key (model names, deployments and spend are in it).
        metrics_public: z.boolean().default(true),
      })
      .strict()
      .refine(
        (gateway) =>
          gateway.request_timeout_ms === undefined ||
          gateway.max_request_timeout_ms === undefined ||
          gateway.request_timeout_ms <= gateway.max_request_timeout_ms,
        {
          message:
            'request_timeout_ms must not exceed max_request_timeout_ms (the longest deadline a request may have)',
          path: ['request_timeout_ms'],
        },
      )
      .prefault({}),
    // Retrieval-augmented generation (docs/rag.md): collections are managed through /internal/rag.
    rag: z
      .object({
        // Model whose vectors rank chunks beside BM25 (hybrid); unset: BM25 only.
        embedding_model: z.string().min(1).optional(),
        top_k: z.number().int().min(1).max(50).default(5),
        // Longest a request waits on its query's vector before it is ranked by BM25 alone; after a
        // failure, queries are not embedded for 30 s.
        query_embedding_timeout_ms: z.number().int().min(100).max(600_000).default(10_000),
        // Cosine similarity a chunk needs to be ranked by its vector (BM25 still finds it by its words);
        // unset: every chunk is ranked, so a question about nothing in the collections still gets top_k.
        min_similarity: z.number().min(-1).max(1).optional(),
        chunk_size: z.number().int().min(100).max(20_000).default(800),
        chunk_overlap: z.number().int().min(0).max(10_000).default(150),
        // Most chunks one document may make: each costs an embedding and rows, and a document of
        // thousands of one-line headings would make a chunk per line.
        max_chunks_per_document: z.number().int().min(1).max(1_000_000).default(20_000),
        // Longest retrieved text put into one request, in characters.
        max_context_chars: positiveInt.default(12_000),
        // Retrieved text has its PII redacted (every type the PII module detects, never restored).
        redact_pii: z.boolean().default(true),
        // Collections searched for every request to a model, or by a key (its id or name).
        models: z.record(z.string(), z.array(z.string().min(1))).default({}),
        keys: z.record(z.string(), z.array(z.string().min(1))).default({}),
      })
      .strict()
      .refine((rag) => rag.chunk_overlap < rag.chunk_size, {
        message: 'chunk_overlap must be smaller than chunk_size',
        path: ['chunk_overlap'],
      })
      .prefault({}),
    cache: cacheConfigSchema.prefault({}),
    telemetry: telemetryConfigSchema.prefault({}),
    store: z
      .object({
        auth: z
          .object({
            enabled: z.boolean().default(true),
            tokens: z.array(storeTokenSchema).default([]),
          })
          .strict()
          .prefault({}),
        metrics_public: z.boolean().default(false),
        limits: z
          .object({
            // A request body is one JSON string in the process: past 64 MiB it could pass V8's longest.
            body_bytes: positiveInt
              .max(64 * 1024 * 1024, 'must be at most 67108864 (64 MiB)')
              .default(16 * 1024 * 1024),
            // Bytes of JSON one log page carries beyond its first entry (response_bytes when lower): its own
            // bound, since a page is built in memory and, past some MiB, stalls both services while it is.
            log_page_bytes: positiveInt
              .max(64 * 1024 * 1024, 'must be at most 67108864 (64 MiB); a log page is built in memory')
              .default(16 * 1024 * 1024),
            document_bytes: positiveInt.default(1024 * 1024),
            documents_per_apply: positiveInt.default(10_000),
            // A whole state is one JSON string in the process, and escaping can make it six times its
            // contents (U+0000 is written \u0000): past 64 MiB of contents it could pass V8's longest string.
            response_bytes: positiveInt
              .max(64 * 1024 * 1024, 'must be at most 67108864 (64 MiB); larger states are read in pages')
              .default(64 * 1024 * 1024),
          })
          .strict()
          .prefault({}),
      })
      .strict()
      .prefault({}),
    sso: ssoSchema.prefault({}),
  })
  .strict()
  .superRefine((config, ctx) => {
    for (const issue of modelRuleIssues(config))
      ctx.addIssue({ code: 'custom', path: [...issue.path], message: issue.message });
    const settings = { ...config.llm, default_embedding_model: config.llm.default_embedding_model ?? null };
    const check = { settings, caps: true, defaultEmbeddingModel: true, passthrough: config.allow_passthrough_keys };
    for (const issue of modelSettingIssues(check))
      ctx.addIssue({ code: 'custom', path: ['llm', ...issue.path], message: issue.message });
  });

/** The validated configuration, every default filled in. */
export type Config = z.infer<typeof configSchema>;
/** One configured deployment. */
export type DeploymentConfig = z.infer<typeof deploymentSchema>;
