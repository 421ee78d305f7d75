import type Database from 'better-sqlite3';
import type { AuditEvent } from '../../../shared/gateway-api.js';
import type { AdminClient } from '../admin/admin-client.js';
import { redactCredentials } from '../traffic/body-credentials.js';
import type { AuditEntry } from './usage-entry.js';

interface AuditRow {
  id: number;
  created_at: number;
  actor: string;
  action: string;
  target: string | null;
  request_id: string | null;
  details: string | null;
  client_address: string | null;
  user_agent: string | null;
  changed_by: string | null;
}

/** Filters of the audit listing. */
export interface AuditFilter {
  readonly limit: number;
  readonly before?: number;
  /** Unix ms, `until` excluded. */
  readonly since?: number;
  readonly until?: number;
  /** Any of these actions. */
  readonly actions?: readonly string[];
  readonly target?: string;
  readonly actor?: string;
}

/**
 * Details as stored, credentials redacted by the traffic view's rule. One name is exempt: the details'
 * own `key`, which the gateway writes for a RAG document's key (no secret); the same name deeper down,
 * in free-form metadata, is judged as any other.
 */
function detailsJson(details: Record<string, unknown>): string {
  return JSON.stringify(details, function (this: unknown, name: string, value: unknown) {
    return this === details && name === 'key' ? value : redactCredentials(name, value);
  });
}

/** SQL of audit events. */
export class AuditRepository {
  private readonly insertStatement: Database.Statement;

  constructor(private readonly sqlite: Database.Database) {
    this.insertStatement = sqlite.prepare(
      'INSERT INTO gateway_audit_events (created_at, actor, action, target, request_id, details, client_address, user_agent, changed_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
  }

  /**
   * Inserts one event (the caller decides the transaction), with the admin client it came from if any.
   * Credentials in its details are redacted as the traffic view redacts bodies: the trail is permanent
   * and shown in the UI, and key metadata is free-form (`owner_api_key`).
   */
  insert(e: AuditEntry, client?: AdminClient): void {
    this.insertStatement.run(
      e.createdAt,
      e.actor,
      e.action,
      e.target,
      e.requestId,
      e.details === null ? null : detailsJson(e.details),
      client?.address ?? null,
      client?.userAgent ?? null,
      client?.changedBy ?? null,
    );
  }

  /** Events, newest first. */
  list(filter: AuditFilter): AuditEvent[] {
    const where: string[] = [];
    if (filter.before !== undefined) where.push('id < @before');
    // Placeholders rather than values: the actions come from a fixed list, but SQL takes no chances.
    const actions = filter.actions ?? [];
    if (filter.actions !== undefined) where.push(`action IN (${actions.map((_, i) => `@action${i}`).join(', ')})`);
    if (filter.target !== undefined) where.push('target = @target');
    if (filter.actor !== undefined) where.push('actor = @actor');
    if (filter.since !== undefined) where.push('created_at >= @since');
    if (filter.until !== undefined) where.push('created_at < @until');
    const rows = this.sqlite
      .prepare(
        `SELECT * FROM gateway_audit_events ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT @limit`,
      )
      .all({
        limit: filter.limit,
        before: filter.before ?? null,
        ...Object.fromEntries(actions.map((action, i) => [`action${i}`, action])),
        target: filter.target ?? null,
        actor: filter.actor ?? null,
        since: filter.since ?? null,
        until: filter.until ?? null,
      }) as AuditRow[];
    return rows.map((r) => ({
      id: r.id,
      created_at: new Date(r.created_at).toISOString(),
      actor: r.actor,
      action: r.action,
      target: r.target,
      request_id: r.request_id,
      details: r.details === null ? null : (JSON.parse(r.details) as Record<string, unknown>),
      client_address: r.client_address,
      user_agent: r.user_agent,
      changed_by: r.changed_by,
    }));
  }
}
