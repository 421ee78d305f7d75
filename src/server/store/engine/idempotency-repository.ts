import type Database from 'better-sqlite3';

// SQL of the answers kept for `Idempotency-Key` retries. Table: src/server/db/schema/store.ts.

/** Which kept answer: whose (a SHA-256 of the token), the endpoint (`POST /v1/apply`) and the caller's key. */
export interface IdempotencySlot {
  readonly token: string;
  readonly endpoint: string;
  readonly key: string;
}

/** A kept answer and the fingerprint of the request it answered. */
export interface KeptAnswer {
  readonly fingerprint: string;
  readonly answer: string;
}

/** The kept answers of idempotent writes; call inside the write's own transaction. */
export class IdempotencyRepository {
  private readonly s: {
    readonly find: Database.Statement;
    readonly insert: Database.Statement;
    readonly prune: Database.Statement;
  };

  constructor(sqlite: Database.Database) {
    this.s = {
      find: sqlite.prepare(
        `SELECT fingerprint, answer FROM store_idempotency_keys WHERE token = ? AND endpoint = ? AND key = ?`,
      ),
      insert: sqlite.prepare(
        `INSERT INTO store_idempotency_keys (token, endpoint, key, fingerprint, answer, created_at)
         VALUES (?, ?, ?, ?, ?, ?)`,
      ),
      prune: sqlite.prepare(`DELETE FROM store_idempotency_keys WHERE created_at < ?`),
    };
  }

  /** The answer kept for the slot, if any. */
  find(slot: IdempotencySlot): KeptAnswer | undefined {
    return this.s.find.get(slot.token, slot.endpoint, slot.key) as KeptAnswer | undefined;
  }

  /** Keeps an answer for the slot. */
  insert(slot: IdempotencySlot, kept: KeptAnswer, createdAt: number): void {
    this.s.insert.run(slot.token, slot.endpoint, slot.key, kept.fingerprint, kept.answer, createdAt);
  }

  /** Forgets the answers kept since before `before` (milliseconds since the epoch). */
  prune(before: number): void {
    this.s.prune.run(before);
  }
}
