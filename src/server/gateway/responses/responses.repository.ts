import { and, asc, desc, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/connection.js';
import { gatewayApiKeys, gatewayResponses } from '../../db/schema/gateway.js';

/** A kept response row. */
export type StoredResponseRow = typeof gatewayResponses.$inferSelect;
/** A new kept response. */
export type NewStoredResponseRow = typeof gatewayResponses.$inferInsert;

/** How many responses holding one item id are looked at (ids are unique but for a provider that repeats them). */
const MAX_ITEM_HOLDERS = 10;

/** SQL of kept responses. A response is one key's: the same id kept by two keys is two rows. */
export class ResponsesRepository {
  private readonly visibleById;
  private readonly anyById;

  constructor(private readonly db: Db) {
    const ownKey = sql`${gatewayResponses.keyId} = ${sql.placeholder('keyId')}`;
    this.visibleById = db
      .select()
      .from(gatewayResponses)
      .where(
        and(
          eq(gatewayResponses.id, sql.placeholder('id')),
          or(ownKey, and(isNotNull(gatewayResponses.team), eq(gatewayResponses.team, sql.placeholder('team')))),
        ),
      )
      // The key's own response first, then the team's newest.
      .orderBy(desc(ownKey), desc(gatewayResponses.createdAt))
      .limit(1)
      .prepare();
    this.anyById = db
      .select({ id: gatewayResponses.id })
      .from(gatewayResponses)
      .where(eq(gatewayResponses.id, sql.placeholder('id')))
      .limit(1)
      .prepare();
  }

  /** Whether any key keeps a response with this id. */
  isKept(id: string): boolean {
    return this.anyById.get({ id }) !== undefined;
  }

  /** Keeps a new response. */
  insert(row: NewStoredResponseRow): void {
    this.db.insert(gatewayResponses).values(row).run();
  }

  /**
   * Replaces a kept response (a stream's final object); false when it is no longer kept. Never
   * inserts: a response deleted while it was written stays deleted.
   */
  update(row: NewStoredResponseRow): boolean {
    const { id, keyId, ...rest } = row;
    return (
      this.db
        .update(gatewayResponses)
        .set(rest)
        .where(and(eq(gatewayResponses.id, id), eq(gatewayResponses.keyId, keyId)))
        .run().changes > 0
    );
  }

  /** The kept response with this id that a key (and its team) may see, if any. */
  findVisible(id: string, keyId: string, team: string | null): StoredResponseRow | undefined {
    return this.visibleById.get({ id, keyId, team });
  }

  /**
   * The kept responses a key (and its team) may see whose output holds an item with this id: the key's
   * own first, then the newest. A scan of the key's and team's rows, made only for an `item_reference`.
   */
  findHoldersOfItem(itemId: string, keyId: string, team: string | null): StoredResponseRow[] {
    const ownKey = eq(gatewayResponses.keyId, keyId);
    const visible = team === null ? ownKey : or(ownKey, eq(gatewayResponses.team, team));
    const holds = sql`EXISTS (SELECT 1 FROM json_each(${gatewayResponses.response}, '$.output') WHERE json_extract(value, '$.id') = ${itemId})`;
    return this.db
      .select()
      .from(gatewayResponses)
      .where(and(visible, holds))
      .orderBy(desc(ownKey), desc(gatewayResponses.createdAt))
      .limit(MAX_ITEM_HOLDERS)
      .all();
  }

  /**
   * Takes a deleted team's responses away from it: those of keys still in use (moved to another team
   * since) stay theirs alone, the rest are deleted; how many were deleted.
   */
  forgetTeam(team: string): number {
    return this.db.transaction((tx) => {
      tx.update(gatewayResponses)
        .set({ team: null })
        .where(
          and(
            eq(gatewayResponses.team, team),
            inArray(
              gatewayResponses.keyId,
              tx.select({ id: gatewayApiKeys.id }).from(gatewayApiKeys).where(isNull(gatewayApiKeys.revokedAt)),
            ),
          ),
        )
        .run();
      return tx.delete(gatewayResponses).where(eq(gatewayResponses.team, team)).run().changes;
    });
  }

  /**
   * Marks failed, with `message`, every response still in progress: at start, those a process that
   * stopped without finishing them (a crash) left behind, which nothing would ever finish; how many.
   */
  failInterrupted(message: string): number {
    const response = gatewayResponses.response;
    return this.db
      .update(gatewayResponses)
      .set({
        response: sql`json_set(${response}, '$.status', 'failed', '$.error', json_object('code', 'server_error', 'message', ${message}))`,
      })
      .where(sql`json_extract(${response}, '$.status') IN ('in_progress', 'queued')`)
      .run().changes;
  }

  /**
   * Deletes up to `limit` kept responses made before `cutoffMs`, oldest first (their input items are
   * in the same row); how many. Bounded so one call holds the write lock and the thread only briefly.
   */
  deleteCreatedBefore(cutoffMs: number, limit: number): number {
    const oldest = this.db
      .select({ rowid: sql`rowid` })
      .from(gatewayResponses)
      .where(lt(gatewayResponses.createdAt, cutoffMs))
      .orderBy(asc(gatewayResponses.createdAt))
      .limit(limit);
    return this.db
      .delete(gatewayResponses)
      .where(inArray(sql`rowid`, oldest))
      .run().changes;
  }

  /** Removes one key's kept response; true when there was one. */
  delete(id: string, keyId: string): boolean {
    return (
      this.db
        .delete(gatewayResponses)
        .where(and(eq(gatewayResponses.id, id), eq(gatewayResponses.keyId, keyId)))
        .run().changes > 0
    );
  }
}
