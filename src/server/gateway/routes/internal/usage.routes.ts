import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  auditListSchema,
  auditQuerySchema,
  usageLogsQuerySchema,
  usageLogsSchema,
  usageQuerySchema,
  usageResponseSchema,
  USAGE_EXPORT_MAX_ROWS,
} from '../../../../shared/gateway-api.js';
import { queryTimeMessage } from '../../../../shared/query-params.js';
import { badRequest } from '../../../http/errors.js';
import { usageCsvExport } from '../../accounting/usage-export.js';
import type { UsageRecorder } from '../../accounting/usage-recorder.js';
import type { PrincipalsService } from '../../principals/principals.service.js';

const DAY_MS = 86_400_000;

/** The id to pass as `before` for the next page, or null when this page was the last. */
function nextCursor(data: ReadonlyArray<{ id: number }>, limit: number): number | null {
  return data.length === limit ? data[data.length - 1]!.id : null;
}

function timeOf(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  const ms = /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  if (!Number.isFinite(ms)) throw badRequest(`query parameter ${name} ${queryTimeMessage(value)}`);
  return ms;
}

/** A list's optional time range, both ends as `/internal/usage` reads them. */
function timeRange(query: { readonly since?: string; readonly until?: string }): { since?: number; until?: number } {
  const range: { since?: number; until?: number } = {};
  if (query.since !== undefined) range.since = timeOf(query.since, 0, 'since');
  if (query.until !== undefined) range.until = timeOf(query.until, 0, 'until');
  if (range.since !== undefined && range.until !== undefined && range.since > range.until)
    throw badRequest('query parameter since must not be after until');
  return range;
}

/**
 * A filter's user and team as rows name them. Filters arrive composed (NFC), as ids are; rows of a
 * record an older version stored decomposed carry that form, and are found through the record.
 */
function storedOwners<T extends { readonly user?: string; readonly team?: string }>(
  principals: PrincipalsService,
  filter: T,
): T {
  return {
    ...filter,
    ...(filter.user !== undefined ? { user: principals.storedUserId(filter.user) } : {}),
    ...(filter.team !== undefined ? { team: principals.storedTeamId(filter.team) } : {}),
  };
}

/** An audit filter's target as events name it: a user's or team's id as stored (see {@link storedOwners}). */
function storedTarget(principals: PrincipalsService, target: string | undefined): string | undefined {
  if (target === undefined) return undefined;
  const user = principals.storedUserId(target);
  return user !== target ? user : principals.storedTeamId(target);
}

/**
 * Writes the rows waiting in memory so the read that follows sees every answered request. When they
 * cannot be written (another process holds the write lock, the disk is full or read-only), the answer
 * says how many are missing from it, in a header and in its fields, rather than looking complete.
 */
function flushForRead(
  recorder: UsageRecorder,
  reply: FastifyReply,
): { pending_rows?: number; pending_reason?: 'locked' | 'unwritable' } {
  recorder.flush();
  const reason = recorder.heldBy;
  if (reason === undefined) return {};
  reply.header('x-gatehouse-usage-pending', String(recorder.pending));
  return { pending_rows: recorder.pending, pending_reason: reason };
}

/** Whether a usage log read asks for CSV: `format=csv`, or no format and an Accept naming `text/csv`. */
function wantsCsv(format: 'json' | 'csv' | undefined, accept: string | undefined): boolean {
  if (format !== undefined) return format === 'csv';
  return accept?.split(',').some((type) => type.split(';')[0]!.trim().toLowerCase() === 'text/csv') ?? false;
}

/** `usage-<since>-to-<until>.csv`, times in UTC without colons (Windows refuses them in file names). */
function usageCsvFileName(range: { since?: number; until?: number }, cut: boolean): string {
  const stamp = (ms: number): string =>
    new Date(ms)
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z')
      .replaceAll(':', '-');
  const since = range.since === undefined ? 'start' : stamp(range.since);
  const until = stamp(range.until ?? Date.now());
  return `usage-${since}-to-${until}${cut ? '-cut' : ''}.csv`;
}

/** `/internal/usage` (aggregates), `/internal/usage/logs` (rows) and `/internal/audit`. */
export const usageRoutes: FastifyPluginAsync = async (app) => {
  const services = app.gateway;
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    '/usage',
    { schema: { querystring: usageQuerySchema, response: { 200: usageResponseSchema } } },
    async (request, reply) => {
      // Rows wait up to one batch interval in memory; a reader must see every answered request.
      const pending = flushForRead(services.recorder, reply);
      const now = Date.now();
      const until = timeOf(request.query.until, now, 'until');
      const since = timeOf(request.query.since, until - DAY_MS, 'since');
      if (since > until) throw badRequest('query parameter since must not be after until');
      const { data, totals } = services.usage.aggregate(storedOwners(services.principals, request.query), since, until);
      return {
        group_by: request.query.group_by,
        bucket: request.query.bucket,
        since: new Date(since).toISOString(),
        until: new Date(until).toISOString(),
        data,
        totals,
        ...pending,
      };
    },
  );

  typed.get(
    '/usage/logs',
    { schema: { querystring: usageLogsQuerySchema, response: { 200: usageLogsSchema } } },
    async (request, reply) => {
      const pending = flushForRead(services.recorder, reply);
      const q = storedOwners(services.principals, request.query);
      const range = timeRange(q);
      const filter = {
        before: q.before,
        ...range,
        keyId: q.key_id,
        model: q.model,
        requestId: q.request_id,
        endpoint: q.endpoint,
        status: q.status,
        errorType: q.error_type,
        user: q.user,
        team: q.team,
      };
      if (wantsCsv(q.format, request.headers.accept)) {
        const csv = usageCsvExport(services.usage, filter, q.max_rows ?? USAGE_EXPORT_MAX_ROWS);
        reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${usageCsvFileName(range, csv.nextCursor !== null)}"`)
          .header('x-gatehouse-export-rows', String(csv.rows));
        if (csv.nextCursor !== null) reply.header('x-gatehouse-export-next-cursor', String(csv.nextCursor));
        // The 200 schema types the JSON page; a stream is sent as it is, past the serializer.
        return (reply as FastifyReply).send(csv.body);
      }
      if (q.max_rows !== undefined) throw badRequest('query parameter max_rows applies to format=csv only');
      const data = services.usage.logs({ ...filter, limit: q.limit });
      return { data, next_cursor: nextCursor(data, q.limit), ...pending };
    },
  );

  typed.get(
    '/audit',
    { schema: { querystring: auditQuerySchema, response: { 200: auditListSchema } } },
    async (request) => {
      const q = request.query;
      const data = services.audit.list({
        limit: q.limit,
        before: q.before,
        ...timeRange(q),
        actions: q.action,
        target: storedTarget(services.principals, q.target),
        actor: q.actor,
      });
      return { data, next_cursor: nextCursor(data, q.limit) };
    },
  );
};
