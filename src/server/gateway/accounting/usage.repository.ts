import type Database from 'better-sqlite3';
import type { UsageQuery, UsagePoint, UsageResponse, UsageRow } from '../../../shared/gateway-api.js';
import { assertNever } from '../../../shared/assert-never.js';
import type { UsageEntry } from './usage-entry.js';
import { roundUsd } from './pricing.js';

const BUCKET_MS = { minute: 60_000, hour: 3_600_000, day: 86_400_000 } as const;

/**
 * A row of a request the rate limits or budgets refused: their 429, before the request was admitted
 * (a provider's own 429 comes after, and is a failure of the provider's).
 */
const REFUSED = "u.status = 429 AND u.error_type = 'rate_limit_exceeded' AND u.admitted = 0";

/**
 * A row that counts as a request: every row but RAG's own embedding calls, which book tokens and cost
 * beside a request (or for indexing) and are no requests of their own, except in a listing of one
 * endpoint (`endpoint=rag_query_embedding` counts the calls).
 */
const COUNTED = "(@endpoint IS NOT NULL OR u.endpoint NOT IN ('rag_query_embedding', 'rag_index_embedding'))";

interface AggregateRow {
  bucket: number;
  grp: string | null;
  label: string | null;
  requests: number;
  errors: number;
  refused: number;
  prompt_tokens: number;
  completion_tokens: number;
  cache_read_prompt_tokens: number;
  cache_write_prompt_tokens: number;
  reasoning_tokens: number;
  cost_usd: number;
  avg_latency_ms: number | null;
  cache_hits: number;
  cache_misses: number;
  saved_tokens: number;
  saved_cost_usd: number;
  upstream_requests: number;
}

interface LogRow {
  id: number;
  request_id: string;
  created_at: number;
  key_id: string | null;
  owner_user: string | null;
  team: string | null;
  endpoint: string;
  model: string | null;
  requested_model: string | null;
  deployment: string | null;
  provider: string | null;
  prompt_tokens: number;
  completion_tokens: number;
  cache_read_prompt_tokens: number | null;
  cache_write_prompt_tokens: number | null;
  reasoning_tokens: number | null;
  cost_usd: number;
  latency_ms: number;
  status: number;
  error_type: string | null;
  stream: number;
  cached: number;
  rag_collections: string | null;
  trace_id: string | null;
  attempts: number | null;
  tokens_estimated: number;
  cache_status: string | null;
  saved_prompt_tokens: number | null;
  saved_completion_tokens: number | null;
  saved_cost_usd: number | null;
  cache_age_s: number | null;
}

/** Filters of the usage log listing. */
export interface UsageLogFilter {
  readonly limit: number;
  readonly before?: number;
  /** Unix ms, `until` excluded. */
  readonly since?: number;
  readonly until?: number;
  readonly status?: number;
  readonly errorType?: string;
  readonly user?: string;
  readonly team?: string;
  readonly keyId?: string;
  readonly model?: string;
  readonly requestId?: string;
  readonly endpoint?: string;
}

/** Of the rows a log filter matches, those counted (at most a maximum, newest first): how many, and their id range. */
export interface UsageLogCount {
  readonly count: number;
  /** Null when none matched. */
  readonly newest: number | null;
  readonly oldest: number | null;
}

/** The group of cache hits in the per-deployment and per-provider views. */
export const CACHE_HITS = '(cache)';

/** What a group is shown as, where its value is no name: a key's name, the cache hits. */
function labelColumn(groupBy: UsageQuery['group_by']): string {
  if (groupBy === 'key') return 'k.name';
  if (groupBy === 'deployment' || groupBy === 'provider') return "CASE WHEN u.cached = 1 THEN 'Cache hits' END";
  return 'NULL';
}

function groupColumn(groupBy: UsageQuery['group_by']): string {
  switch (groupBy) {
    case 'model':
      // As the traffic view shows a request: the model it was routed to, else the one it asked for
      // (refused before it resolved), so the two views name such a request alike.
      return 'COALESCE(u.model, u.requested_model)';
    case 'key':
      return 'u.key_id';
    case 'user':
      return 'u.owner_user';
    case 'team':
      return 'u.team';
    // Per upstream: a cache hit called none (its row keeps the deployment that answered first, which
    // the traffic view shows), so hits are a group of their own, named by CACHE_HITS (no deployment id
    // or provider name can be written with parentheses).
    case 'deployment':
      return `CASE WHEN u.cached = 1 THEN '${CACHE_HITS}' ELSE u.deployment END`;
    case 'provider':
      return `CASE WHEN u.cached = 1 THEN '${CACHE_HITS}' ELSE u.provider END`;
    case 'none':
      return 'NULL';
    default:
      return assertNever(groupBy, 'group_by');
  }
}

/** A `model` filter matches the routed model or the name asked for (an alias), as the traffic view's filter does. */
const modelFilter = (table = ''): string => `(${table}model = @model OR ${table}requested_model = @model)`;

/** The WHERE clause of a log listing's filter, its values bound by {@link logParams}. */
function logWhere(filter: Omit<UsageLogFilter, 'limit'>): string {
  const where: string[] = [];
  if (filter.before !== undefined) where.push('id < @before');
  if (filter.keyId !== undefined) where.push('key_id = @key_id');
  if (filter.model !== undefined) where.push(modelFilter());
  if (filter.requestId !== undefined) where.push('request_id = @request_id');
  if (filter.endpoint !== undefined) where.push('endpoint = @endpoint');
  if (filter.since !== undefined) where.push('created_at >= @since');
  if (filter.until !== undefined) where.push('created_at < @until');
  if (filter.status !== undefined) where.push('status = @status');
  if (filter.errorType !== undefined) where.push('error_type = @error_type');
  if (filter.user !== undefined) where.push('owner_user = @user');
  if (filter.team !== undefined) where.push('team = @team');
  return where.length ? `WHERE ${where.join(' AND ')}` : '';
}

/** The values {@link logWhere} names. */
function logParams(filter: Omit<UsageLogFilter, 'limit'>): Record<string, string | number | null> {
  return {
    before: filter.before ?? null,
    key_id: filter.keyId ?? null,
    model: filter.model ?? null,
    request_id: filter.requestId ?? null,
    endpoint: filter.endpoint ?? null,
    since: filter.since ?? null,
    until: filter.until ?? null,
    status: filter.status ?? null,
    error_type: filter.errorType ?? null,
    user: filter.user ?? null,
    team: filter.team ?? null,
  };
}

const USAGE_COLUMNS = `request_id, created_at, key_id, owner_user, team, endpoint, model, requested_model, deployment,
  provider, prompt_tokens, completion_tokens, cache_read_prompt_tokens, cache_write_prompt_tokens, reasoning_tokens,
  cost_usd, latency_ms, status, error_type, stream, cached, admitted, rag_collections, trace_id, attempts, tokens_estimated,
  cache_status, saved_prompt_tokens, saved_completion_tokens, saved_cost_usd, cache_age_s`;
const ROW_PLACEHOLDERS = `(${new Array(31).fill('?').join(', ')})`;
/** Rows per multi-row INSERT: one statement call binds them all (SQLite allows 32766 parameters). */
const ROWS_PER_STATEMENT = 50;

/** The 31 values of a row, in column order, appended to `out`. */
function pushValues(out: unknown[], e: UsageEntry): void {
  out.push(
    e.requestId,
    e.createdAt,
    e.keyId,
    e.ownerUser,
    e.team,
    e.endpoint,
    e.model,
    // Undefined cannot be bound: rows built outside the pipeline (the benchmark's reference) may lack it.
    e.requestedModel ?? null,
    e.deployment,
    e.provider,
    e.promptTokens,
    e.completionTokens,
    e.cacheReadPromptTokens ?? null,
    e.cacheWritePromptTokens ?? null,
    e.reasoningTokens ?? null,
    e.costUsd,
    e.latencyMs,
    e.status,
    e.errorType,
    e.stream ? 1 : 0,
    e.cached ? 1 : 0,
    e.admitted ? 1 : 0,
    e.ragCollections ?? null,
    e.traceId ?? null,
    e.attempts ?? null,
    e.tokensEstimated === true ? 1 : 0,
    e.cacheStatus ?? null,
    e.savedPromptTokens ?? null,
    e.savedCompletionTokens ?? null,
    e.savedCostUsd ?? null,
    e.cacheAgeS ?? null,
  );
}

/** SQL of usage rows: batched inserts on the hot path (raw prepared statements), aggregates for the admin API. */
export class UsageRepository {
  private readonly insert: Database.Statement;
  /** Inserts ROWS_PER_STATEMENT rows in one call: far fewer crossings into SQLite than one call per row. */
  private readonly insertFull: Database.Statement;
  private readonly insertMany: (entries: readonly UsageEntry[]) => void;

  constructor(private readonly sqlite: Database.Database) {
    this.insert = sqlite.prepare(`INSERT INTO gateway_usage (${USAGE_COLUMNS}) VALUES ${ROW_PLACEHOLDERS}`);
    this.insertFull = sqlite.prepare(
      `INSERT INTO gateway_usage (${USAGE_COLUMNS}) VALUES ${new Array(ROWS_PER_STATEMENT).fill(ROW_PLACEHOLDERS).join(', ')}`,
    );
    this.insertMany = sqlite.transaction((entries: readonly UsageEntry[]) => {
      let index = 0;
      const values: unknown[] = [];
      for (; index + ROWS_PER_STATEMENT <= entries.length; index += ROWS_PER_STATEMENT) {
        values.length = 0;
        for (let row = index; row < index + ROWS_PER_STATEMENT; row += 1) pushValues(values, entries[row]!);
        this.insertFull.run(values);
      }
      for (; index < entries.length; index += 1) this.insertOne(entries[index]!);
    });
  }

  /** Inserts one row (the caller provides the transaction). */
  insertOne(e: UsageEntry): void {
    const values: unknown[] = [];
    pushValues(values, e);
    this.insert.run(values);
  }

  /** Inserts rows in one transaction: one sync for the whole batch. */
  insertBatch(entries: readonly UsageEntry[]): void {
    this.insertMany(entries);
  }

  /**
   * Totals per time bucket and group. A request counts as an error when it was answered with an
   * error status or failed after its 200 went out (a stream that broke: status 200, `error_type` set).
   */
  aggregate(query: UsageQuery, since: number, until: number): Pick<UsageResponse, 'data' | 'totals'> {
    const size = BUCKET_MS[query.bucket];
    const group = groupColumn(query.group_by);
    const label = labelColumn(query.group_by);
    const where = ['u.created_at >= @since', 'u.created_at < @until'];
    if (query.key_id !== undefined) where.push('u.key_id = @key_id');
    if (query.model !== undefined) where.push(modelFilter('u.'));
    if (query.user !== undefined) where.push('u.owner_user = @user');
    if (query.team !== undefined) where.push('u.team = @team');
    if (query.endpoint !== undefined) where.push('u.endpoint = @endpoint');
    const rows = this.sqlite
      .prepare(
        `SELECT u.created_at - (u.created_at % @size) AS bucket, ${group} AS grp, ${label} AS label,
           SUM(${COUNTED}) AS requests, SUM(u.status >= 400 OR u.error_type IS NOT NULL) AS errors,
           SUM(${REFUSED}) AS refused,
           SUM(u.prompt_tokens) AS prompt_tokens, SUM(u.completion_tokens) AS completion_tokens,
           TOTAL(u.cache_read_prompt_tokens) AS cache_read_prompt_tokens,
           TOTAL(u.cache_write_prompt_tokens) AS cache_write_prompt_tokens,
           TOTAL(u.reasoning_tokens) AS reasoning_tokens, SUM(u.cost_usd) AS cost_usd,
           SUM(${COUNTED} AND u.cached = 1) AS cache_hits, SUM(${COUNTED} AND u.cache_status IS 'miss') AS cache_misses,
           TOTAL(u.saved_prompt_tokens + u.saved_completion_tokens) AS saved_tokens,
           TOTAL(u.saved_cost_usd) AS saved_cost_usd,
           -- Latency is the upstream's: a hit's millisecond from memory would make a model look faster
           -- the more its answers are reused.
           SUM(${COUNTED} AND u.cached = 0) AS upstream_requests,
           AVG(CASE WHEN ${COUNTED} AND u.cached = 0 THEN u.latency_ms END) AS avg_latency_ms
         FROM gateway_usage u ${query.group_by === 'key' ? 'LEFT JOIN gateway_api_keys k ON k.id = u.key_id' : ''}
         WHERE ${where.join(' AND ')}
         GROUP BY bucket, grp ORDER BY bucket, grp`,
      )
      .all({
        size,
        since,
        until,
        key_id: query.key_id ?? null,
        model: query.model ?? null,
        user: query.user ?? null,
        team: query.team ?? null,
        endpoint: query.endpoint ?? null,
      }) as AggregateRow[];
    const data: UsagePoint[] = rows.map((row) => ({
      bucket_start: new Date(row.bucket).toISOString(),
      group: row.grp,
      label: row.label,
      requests: row.requests,
      errors: row.errors,
      refused: row.refused,
      prompt_tokens: row.prompt_tokens,
      completion_tokens: row.completion_tokens,
      total_tokens: row.prompt_tokens + row.completion_tokens,
      cache_read_prompt_tokens: row.cache_read_prompt_tokens,
      cache_write_prompt_tokens: row.cache_write_prompt_tokens,
      reasoning_tokens: row.reasoning_tokens,
      cost_usd: roundUsd(row.cost_usd),
      avg_latency_ms: row.avg_latency_ms === null ? null : Math.round(row.avg_latency_ms * 100) / 100,
      cache_hits: row.cache_hits,
      cache_misses: row.cache_misses,
      saved_tokens: row.saved_tokens,
      saved_cost_usd: roundUsd(row.saved_cost_usd),
    }));
    const totals = data.reduce(
      (sum, p, index) => ({
        requests: sum.requests + p.requests,
        errors: sum.errors + p.errors,
        refused: sum.refused + (p.refused ?? 0),
        prompt_tokens: sum.prompt_tokens + p.prompt_tokens,
        completion_tokens: sum.completion_tokens + p.completion_tokens,
        total_tokens: sum.total_tokens + p.total_tokens,
        cache_read_prompt_tokens: sum.cache_read_prompt_tokens + p.cache_read_prompt_tokens,
        cache_write_prompt_tokens: sum.cache_write_prompt_tokens + p.cache_write_prompt_tokens,
        reasoning_tokens: sum.reasoning_tokens + p.reasoning_tokens,
        cost_usd: sum.cost_usd + p.cost_usd,
        cache_hits: sum.cache_hits + (p.cache_hits ?? 0),
        cache_misses: sum.cache_misses + (p.cache_misses ?? 0),
        saved_tokens: sum.saved_tokens + (p.saved_tokens ?? 0),
        saved_cost_usd: sum.saved_cost_usd + (p.saved_cost_usd ?? 0),
        latencySum: sum.latencySum + (p.avg_latency_ms ?? 0) * rows[index]!.upstream_requests,
        upstream: sum.upstream + rows[index]!.upstream_requests,
      }),
      {
        requests: 0,
        errors: 0,
        refused: 0,
        prompt_tokens: 0,
        completion_tokens: 0,
        total_tokens: 0,
        cache_read_prompt_tokens: 0,
        cache_write_prompt_tokens: 0,
        reasoning_tokens: 0,
        cost_usd: 0,
        cache_hits: 0,
        cache_misses: 0,
        saved_tokens: 0,
        saved_cost_usd: 0,
        latencySum: 0,
        upstream: 0,
      },
    );
    const { latencySum, upstream, ...rest } = totals;
    return {
      data,
      totals: {
        ...rest,
        cost_usd: roundUsd(rest.cost_usd),
        saved_cost_usd: roundUsd(rest.saved_cost_usd),
        avg_latency_ms: upstream > 0 ? Math.round((latencySum / upstream) * 100) / 100 : null,
      },
    };
  }

  /** Requests, tokens and spend since `since`, per user or per team. */
  totalsSince(
    group: 'user' | 'team',
    since: number,
  ): Map<string, { requests: number; tokens: number; cost_usd: number }> {
    const [column, records] = group === 'user' ? ['owner_user', 'gateway_users'] : ['team', 'gateway_teams'];
    // From each record's creation: an id taken again after a deletion starts without the old one's usage.
    const rows = this.sqlite
      .prepare(
        // Requests the limits admitted: a refused one counts against no limit, so not here either.
        `SELECT u.${column} AS id, SUM(u.admitted) AS requests, SUM(u.prompt_tokens + u.completion_tokens) AS tokens,
           SUM(u.cost_usd) AS cost_usd
         FROM gateway_usage u JOIN ${records} r ON r.id = u.${column}
         WHERE u.created_at >= ? AND u.created_at >= r.created_at GROUP BY u.${column}`,
      )
      .all(since) as Array<{ id: string; requests: number; tokens: number; cost_usd: number }>;
    return new Map(rows.map(({ id, cost_usd, ...totals }) => [id, { ...totals, cost_usd: roundUsd(cost_usd) }]));
  }

  /** Usage rows, newest first. */
  logs(filter: UsageLogFilter): UsageRow[] {
    const rows = this.sqlite
      .prepare(`SELECT * FROM gateway_usage ${logWhere(filter)} ORDER BY id DESC LIMIT @limit`)
      .all({ ...logParams(filter), limit: filter.limit }) as LogRow[];
    return rows.map((r) => ({
      id: r.id,
      request_id: r.request_id,
      created_at: new Date(r.created_at).toISOString(),
      key_id: r.key_id,
      user: r.owner_user,
      team: r.team,
      endpoint: r.endpoint,
      model: r.model,
      requested_model: r.requested_model,
      deployment: r.deployment,
      provider: r.provider,
      prompt_tokens: r.prompt_tokens,
      completion_tokens: r.completion_tokens,
      cache_read_prompt_tokens: r.cache_read_prompt_tokens,
      cache_write_prompt_tokens: r.cache_write_prompt_tokens,
      reasoning_tokens: r.reasoning_tokens,
      cost_usd: roundUsd(r.cost_usd),
      latency_ms: r.latency_ms,
      status: r.status,
      error_type: r.error_type,
      stream: r.stream === 1,
      cached: r.cached === 1,
      rag_collections: r.rag_collections,
      trace_id: r.trace_id,
      attempts: r.attempts,
      tokens_estimated: r.tokens_estimated === 1,
      cache_status: r.cache_status as UsageRow['cache_status'],
      saved_prompt_tokens: r.saved_prompt_tokens,
      saved_completion_tokens: r.saved_completion_tokens,
      saved_cost_usd: r.saved_cost_usd === null ? null : roundUsd(r.saved_cost_usd),
      cache_age_s: r.cache_age_s,
    }));
  }

  /**
   * How many rows a filter matches, counting at most `max` of them newest first (one query, no rows
   * built), with the newest and oldest id among those counted.
   */
  countLogs(filter: Omit<UsageLogFilter, 'limit'>, max: number): UsageLogCount {
    return this.sqlite
      .prepare(
        `SELECT COUNT(*) AS count, MAX(id) AS newest, MIN(id) AS oldest
         FROM (SELECT id FROM gateway_usage ${logWhere(filter)} ORDER BY id DESC LIMIT @limit)`,
      )
      .get({ ...logParams(filter), limit: max }) as UsageLogCount;
  }
}
