import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

// The model gateway's tables. Times are Unix milliseconds; lists and maps are JSON text.

/** Issued API keys: only the sha256 of the secret is kept, plus its first characters for display. */
export const gatewayApiKeys = sqliteTable(
  'gateway_api_keys',
  {
    id: text('id').primaryKey(),
    name: text('name'),
    keyPrefix: text('key_prefix').notNull(),
    keyHash: text('key_hash').notNull(),
    ownerUser: text('owner_user'),
    team: text('team'),
    scopes: text('scopes', { mode: 'json' }).$type<string[]>().notNull(),
    allowedModels: text('allowed_models', { mode: 'json' }).$type<string[]>(),
    rpmLimit: integer('rpm_limit'),
    tpmLimit: integer('tpm_limit'),
    /** The key's own cap on its requests in flight at once (null: the configuration's default). */
    maxParallelRequests: integer('max_parallel_requests'),
    /** The key's own spend budgets in dollars, per UTC day and UTC calendar month. */
    usdDailyBudget: real('usd_daily_budget'),
    usdMonthlyBudget: real('usd_monthly_budget'),
    userTpmBudget: integer('user_tpm_budget'),
    userTpdBudget: integer('user_tpd_budget'),
    teamTpmBudget: integer('team_tpm_budget'),
    teamTpdBudget: integer('team_tpd_budget'),
    metadata: text('metadata', { mode: 'json' }).$type<Record<string, unknown>>(),
    /** Whether the key may keep responses and continue kept ones (`store`, `previous_response_id`). */
    allowStateful: integer('allow_stateful', { mode: 'boolean' }).notNull().default(true),
    expiresAt: integer('expires_at'),
    createdAt: integer('created_at').notNull(),
    lastUsedAt: integer('last_used_at'),
    revokedAt: integer('revoked_at'),
    /** Single sign-on: the OpenID issuer and subject the key was issued to, and the session it belongs to. */
    issuer: text('issuer'),
    subject: text('subject'),
    ssoSessionId: text('sso_session_id'),
    /** When the secret was last replaced (rotation keeps the key's id, limits and history). */
    rotatedAt: integer('rotated_at'),
    /** The secret before the last rotation, and until when it still works (a grace period, or the rotation itself). */
    previousKeyHash: text('previous_key_hash'),
    previousKeyExpiresAt: integer('previous_key_expires_at'),
  },
  (table) => [
    uniqueIndex('gateway_api_keys_hash').on(table.keyHash),
    index('gateway_api_keys_previous_hash').on(table.previousKeyHash),
    index('gateway_api_keys_sso_session').on(table.ssoSessionId),
    index('gateway_api_keys_owner').on(table.ownerUser),
    index('gateway_api_keys_team').on(table.team),
  ],
);

/** One row per /v1 request (errors and streams included), written in batches. */
export const gatewayUsage = sqliteTable(
  'gateway_usage',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    requestId: text('request_id').notNull(),
    createdAt: integer('created_at').notNull(),
    keyId: text('key_id'),
    ownerUser: text('owner_user'),
    team: text('team'),
    endpoint: text('endpoint').notNull(),
    model: text('model'),
    /** The model as the client named it (an alias, or a name refused before it resolved). */
    requestedModel: text('requested_model'),
    deployment: text('deployment'),
    provider: text('provider'),
    promptTokens: integer('prompt_tokens').notNull(),
    completionTokens: integer('completion_tokens').notNull(),
    /** Of the prompt tokens, those the provider read from its prompt cache; null when it did not say. */
    cacheReadPromptTokens: integer('cache_read_prompt_tokens'),
    /** Of the prompt tokens, those the provider wrote to its prompt cache (Anthropic); null when it did not say. */
    cacheWritePromptTokens: integer('cache_write_prompt_tokens'),
    /** Of the completion tokens, those the model spent reasoning; null when the provider did not say. */
    reasoningTokens: integer('reasoning_tokens'),
    costUsd: real('cost_usd').notNull(),
    latencyMs: real('latency_ms').notNull(),
    status: integer('status').notNull(),
    errorType: text('error_type'),
    stream: integer('stream', { mode: 'boolean' }).notNull(),
    cached: integer('cached', { mode: 'boolean' }).notNull(),
    /** The request passed the limits stage and drew on its buckets and budgets (rebuilt from at start). */
    admitted: integer('admitted', { mode: 'boolean' }).notNull().default(false),
    /** Of a RAG embedding row: the collections it served (searched, or indexed), comma-separated. */
    ragCollections: text('rag_collections'),
    /** The request's OpenTelemetry trace, when its spans were recorded (exported); null otherwise and on older rows. */
    traceId: text('trace_id'),
    /** Upstream calls made, retries and fallbacks included (0: answered without one); null on older rows. */
    attempts: integer('attempts'),
    /** The gateway estimated the token counts (a client that left, a stream cut before its usage). */
    tokensEstimated: integer('tokens_estimated', { mode: 'boolean' }).notNull().default(false),
    /** What the response cache did: `hit`, `miss`, `bypass` or `refresh`; null when it did not consider the request. */
    cacheStatus: text('cache_status'),
    /** Of a cache hit: the kept answer's usage, which the hit did not spend again; null on other rows. */
    savedPromptTokens: integer('saved_prompt_tokens'),
    savedCompletionTokens: integer('saved_completion_tokens'),
    /** Of a cache hit: what the kept answer's usage costs at the prices of the hit's time. */
    savedCostUsd: real('saved_cost_usd'),
    /** Of a cache hit: how old the kept answer was, in whole seconds. */
    cacheAgeS: integer('cache_age_s'),
  },
  (table) => [
    // Only the indexes the admin views need: each one costs every insert, and a random one (the
    // request id) costs most; measured, five indexes made a row 4x dearer than these two.
    index('gateway_usage_created').on(table.createdAt),
    index('gateway_usage_key_created').on(table.keyId, table.createdAt),
  ],
);

/** Audit trail of admin actions and embeddings calls. */
export const gatewayAuditEvents = sqliteTable(
  'gateway_audit_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    createdAt: integer('created_at').notNull(),
    actor: text('actor').notNull(),
    action: text('action').notNull(),
    target: text('target'),
    requestId: text('request_id'),
    details: text('details', { mode: 'json' }).$type<Record<string, unknown>>(),
    /** The admin client a change came from (null for inference and sign-in events, and older events). */
    clientAddress: text('client_address'),
    userAgent: text('user_agent'),
    changedBy: text('changed_by'),
  },
  (table) => [
    index('gateway_audit_created').on(table.createdAt),
    index('gateway_audit_action').on(table.action, table.createdAt),
  ],
);

/**
 * Admin overrides of the configuration's model settings and deployments (one JSON document per name);
 * absent rows mean "use the configuration file".
 */
export const gatewaySettings = sqliteTable('gateway_settings', {
  name: text('name').primaryKey(),
  value: text('value', { mode: 'json' }).$type<unknown>().notNull(),
  updatedAt: integer('updated_at').notNull(),
});

/**
 * When each model name first appeared in the allowed models (`created` of `GET /v1/models`): kept so
 * the value survives restarts and a model allowed later lists as newer. Rows stay when a model is
 * removed, so one allowed again keeps its first date.
 */
export const gatewayModelFirstSeen = sqliteTable('gateway_model_first_seen', {
  model: text('model').primaryKey(),
  firstSeenAt: integer('first_seen_at').notNull(),
});

/**
 * Responses kept for `GET /v1/responses/{id}` and `previous_response_id` (`store: true`): the Response
 * object as answered and the request's own input items, owned by the key that made it and its team.
 * Keyed by id and key: a native upstream's ids are its own, and one that repeats them must not let a
 * key overwrite (or read) another key's response.
 */
export const gatewayResponses = sqliteTable(
  'gateway_responses',
  {
    id: text('id').notNull(),
    keyId: text('key_id').notNull(),
    team: text('team'),
    previousResponseId: text('previous_response_id'),
    response: text('response', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    inputItems: text('input_items', { mode: 'json' }).$type<Array<Record<string, unknown>>>().notNull(),
    createdAt: integer('created_at').notNull(),
    /**
     * Who made the output items' ids: the provider, or the gateway for an answer it translated from
     * a chat API, whose ids no provider knows and which are never sent to one.
     */
    itemIdsBy: text('item_ids_by', { enum: ['provider', 'gateway'] })
      .notNull()
      .default('provider'),
    /**
     * The Responses API that made the ids, when the provider did (its base URL): another provider's
     * API refuses ids it never issued, so a conversation that moves is replayed without them. Null for
     * rows kept before it was recorded, whose ids are replayed as they were.
     */
    itemIdsIssuer: text('item_ids_issuer'),
    /**
     * The id the provider's own Responses API gave the response, which keeps it too: the id to delete
     * there, another than `id` when the gateway kept it under one of its own (the provider's was
     * kept already). Null for translated answers, and for rows kept before it was recorded.
     */
    upstreamId: text('upstream_id'),
    /**
     * The RAG collections the response was made with, its own and its conversation's: another key of
     * the team sees the response only if it may read them all, since the answer may quote them.
     */
    ragCollections: text('rag_collections', { mode: 'json' }).$type<string[]>().notNull().default([]),
  },
  // By age: the retention purge (responses.retention_days) finds the oldest without reading every row.
  (table) => [primaryKey({ columns: [table.id, table.keyId] }), index('gateway_responses_created').on(table.createdAt)],
);

/**
 * Limits and budgets a user or team record may carry (null: none of its own, the configuration's
 * default applies). Rate limits are token buckets; budgets are calendar windows (UTC minute, day and month).
 */
const limitColumns = () => ({
  rpmLimit: integer('rpm_limit'),
  tpmLimit: integer('tpm_limit'),
  /** Requests in flight at once, counted over all the record's keys. */
  maxParallelRequests: integer('max_parallel_requests'),
  tpmBudget: integer('tpm_budget'),
  tpdBudget: integer('tpd_budget'),
  usdDailyBudget: real('usd_daily_budget'),
  usdMonthlyBudget: real('usd_monthly_budget'),
});

/** Teams: keys and users belong to one; limits and budgets shared by all their keys. */
export const gatewayTeams = sqliteTable('gateway_teams', {
  id: text('id').primaryKey(),
  name: text('name'),
  ...limitColumns(),
  metadata: text('metadata', { mode: 'json' }).$type<Record<string, unknown>>(),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
});

/** Users: each key belongs to one; a user may belong to a team (the default team of their new keys). */
export const gatewayUsers = sqliteTable(
  'gateway_users',
  {
    id: text('id').primaryKey(),
    name: text('name'),
    email: text('email'),
    team: text('team'),
    ...limitColumns(),
    metadata: text('metadata', { mode: 'json' }).$type<Record<string, unknown>>(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    /**
     * The OpenID account (issuer and subject) the user id is bound to by its first single sign-on:
     * another account naming the same id (the same e-mail address) is refused. Null until then.
     */
    ssoIssuer: text('sso_issuer'),
    ssoSubject: text('sso_subject'),
  },
  (table) => [index('gateway_users_team').on(table.team)],
);

/**
 * Single sign-on sessions: one per key issued through an OpenID provider. The refresh token is kept
 * encrypted (AES-256-GCM, a key in the data folder) and never leaves the server; `groups` are the
 * mapped groups the key's grant came from, checked again at each refresh.
 */
export const gatewaySsoSessions = sqliteTable(
  'gateway_sso_sessions',
  {
    id: text('id').primaryKey(),
    provider: text('provider').notNull(),
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    ownerUser: text('owner_user').notNull(),
    keyId: text('key_id').notNull(),
    groups: text('groups', { mode: 'json' }).$type<string[]>().notNull(),
    refreshToken: text('refresh_token'),
    createdAt: integer('created_at').notNull(),
    refreshedAt: integer('refreshed_at'),
    endedAt: integer('ended_at'),
    endReason: text('end_reason'),
  },
  (table) => [index('gateway_sso_sessions_key').on(table.keyId), index('gateway_sso_sessions_open').on(table.endedAt)],
);
