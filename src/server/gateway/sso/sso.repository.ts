import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/connection.js';
import { gatewaySsoSessions } from '../../db/schema/gateway.js';

/** A stored SSO session. */
export type SsoSessionRow = typeof gatewaySsoSessions.$inferSelect;

/** SQL of single sign-on sessions. */
export class SsoRepository {
  constructor(private readonly db: Db) {}

  /** Stores a new session. */
  insert(row: SsoSessionRow): SsoSessionRow {
    return this.db.insert(gatewaySsoSessions).values(row).returning().get();
  }

  /** The session with this id. */
  findById(id: string): SsoSessionRow | undefined {
    return this.db.select().from(gatewaySsoSessions).where(eq(gatewaySsoSessions.id, id)).get();
  }

  /** Sessions, newest first; open ones only unless `includeEnded`. */
  list(filter: { includeEnded: boolean; provider?: string }): SsoSessionRow[] {
    const conditions = [
      filter.includeEnded ? undefined : isNull(gatewaySsoSessions.endedAt),
      filter.provider !== undefined ? eq(gatewaySsoSessions.provider, filter.provider) : undefined,
    ].filter((c) => c !== undefined);
    return this.db
      .select()
      .from(gatewaySsoSessions)
      .where(and(...conditions))
      .orderBy(desc(gatewaySsoSessions.createdAt), desc(gatewaySsoSessions.id))
      .all();
  }

  /** Records a successful refresh (and the rotated refresh token, if the provider rotated it). */
  refreshed(id: string, at: number, refreshToken: string | null): void {
    this.db
      .update(gatewaySsoSessions)
      .set({ refreshedAt: at, refreshToken })
      .where(eq(gatewaySsoSessions.id, id))
      .run();
  }

  /** Stores the refresh token a provider rotated in an answer that then failed a check (no successful refresh). */
  rotated(id: string, refreshToken: string): void {
    this.db.update(gatewaySsoSessions).set({ refreshToken }).where(eq(gatewaySsoSessions.id, id)).run();
  }

  /** Ends a session and forgets its refresh token; false when it had already ended. */
  end(id: string, at: number, reason: string): boolean {
    const result = this.db
      .update(gatewaySsoSessions)
      .set({ endedAt: at, endReason: reason, refreshToken: null })
      .where(and(eq(gatewaySsoSessions.id, id), isNull(gatewaySsoSessions.endedAt)))
      .run();
    return result.changes > 0;
  }
}
