import type Database from 'better-sqlite3';
import type { UsageRecorder } from '../accounting/usage-recorder.js';
import type { LimitSubject } from './limit-plan.js';

/** One admitted request as the usage table kept it. */
export interface PastRequest {
  readonly at: number;
  readonly tokens: number;
}

const COLUMN: Readonly<Record<LimitSubject['kind'], string>> = {
  key: 'key_id',
  user: 'owner_user',
  team: 'team',
  model: 'model',
};

/**
 * Users and teams are named by their id, which a new record may take again after one was deleted:
 * their usage counts from their record's creation, so a new team never starts with the old one's.
 */
const SINCE_RECORD: Readonly<Record<LimitSubject['kind'], string>> = {
  key: '',
  user: 'AND created_at >= coalesce((SELECT created_at FROM gateway_users WHERE id = @id), 0)',
  team: 'AND created_at >= coalesce((SELECT created_at FROM gateway_teams WHERE id = @id), 0)',
  model: '',
};

/**
 * What the usage table says a subject used: how a bucket or budget that this process has not held
 * yet (after a start, or a limit newly set) learns its state, so that counts survive a restart.
 * Rows wait in the recorder's batch for a moment; they are written first so none is missed.
 */
export class UsageHistory {
  private readonly requests = new Map<string, Database.Statement>();
  private readonly totals = new Map<string, Database.Statement>();

  constructor(
    private readonly sqlite: Database.Database,
    private readonly recorder: UsageRecorder,
  ) {
    for (const [kind, column] of Object.entries(COLUMN)) {
      this.requests.set(
        kind,
        sqlite.prepare(
          `SELECT created_at AS at, prompt_tokens + completion_tokens AS tokens FROM gateway_usage
           WHERE created_at >= @since AND ${column} = @id AND admitted = 1 ${SINCE_RECORD[kind as LimitSubject['kind']]}
           ORDER BY created_at`,
        ),
      );
      this.totals.set(
        kind,
        sqlite.prepare(
          `SELECT coalesce(sum(prompt_tokens + completion_tokens), 0) AS tokens, coalesce(sum(cost_usd), 0) AS usd
           FROM gateway_usage WHERE created_at >= @since AND ${column} = @id ${SINCE_RECORD[kind as LimitSubject['kind']]}`,
        ),
      );
    }
  }

  /** The subject's admitted requests since `since`, oldest first. */
  requestsSince(subject: LimitSubject, since: number): PastRequest[] {
    this.recorder.flush();
    return this.requests.get(subject.kind)!.all({ since, id: subject.id }) as PastRequest[];
  }

  /** Tokens and spend of the subject since `since`. */
  totalsSince(subject: LimitSubject, since: number): { readonly tokens: number; readonly usd: number } {
    this.recorder.flush();
    return this.totals.get(subject.kind)!.get({ since, id: subject.id }) as { tokens: number; usd: number };
  }
}
