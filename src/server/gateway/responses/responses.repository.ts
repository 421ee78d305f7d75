import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/connection.js';
import { gatewayResponses } from '../../db/schema/gateway.js';

/** A kept response row. */
export type StoredResponseRow = typeof gatewayResponses.$inferSelect;
/** A new kept response. */
export type NewStoredResponseRow = typeof gatewayResponses.$inferInsert;

/** SQL of kept responses. */
export class ResponsesRepository {
  private readonly byId;

  constructor(private readonly db: Db) {
    this.byId = db
      .select()
      .from(gatewayResponses)
      .where(eq(gatewayResponses.id, sql.placeholder('id')))
      .prepare();
  }

  /** Keeps a response; a stream's final object replaces what was kept for its id. */
  upsert(row: NewStoredResponseRow): void {
    this.db
      .insert(gatewayResponses)
      .values(row)
      .onConflictDoUpdate({ target: gatewayResponses.id, set: { response: row.response } })
      .run();
  }

  /** The kept response with this id, if any. */
  find(id: string): StoredResponseRow | undefined {
    return this.byId.get({ id });
  }

  /** Removes a kept response; true when there was one. */
  delete(id: string): boolean {
    return this.db.delete(gatewayResponses).where(eq(gatewayResponses.id, id)).run().changes > 0;
  }
}
