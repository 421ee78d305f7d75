import type Database from 'better-sqlite3';
import type { AuditEvent } from '../../../shared/gateway-api.js';
import type { AuditEntry } from './usage-entry.js';

interface AuditRow {
  id: number;
  created_at: number;
  actor: string;
  action: string;
  target: string | null;
  request_id: string | null;
  details: string | null;
}

/** Filters of the audit listing. */
export interface AuditFilter {
  readonly limit: number;
  readonly before?: number;
  /** Unix ms, `until` excluded. */
  readonly since?: number;
  readonly until?: number;
  readonly action?: string;
  readonly target?: string;
  readonly actor?: string;
}

/** SQL of audit events. */
export class AuditRepository {
  private readonly insertStatement: Database.Statement;

  constructor(private readonly sqlite: Database.Database) {
    this.insertStatement = sqlite.prepare(
      'INSERT INTO gateway_audit_events (created_at, actor, action, target, request_id, details) VALUES (?, ?, ?, ?, ?, ?)',
    );
  }

  /** Inserts one event (the caller decides the transaction). */
  insert(e: AuditEntry): void {
    this.insertStatement.run(
      e.createdAt,
      e.actor,
      e.action,
      e.target,
      e.requestId,
      e.details === null ? null : JSON.stringify(e.details),
    );
  }

  /** Events, newest first. */
  list(filter: AuditFilter): AuditEvent[] {
    const where: string[] = [];
    if (filter.before !== undefined) where.push('id < @before');
    if (filter.action !== undefined) where.push('action = @action');
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
        action: filter.action ?? null,
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
    }));
  }
}
