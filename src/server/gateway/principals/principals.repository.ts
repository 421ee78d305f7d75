import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../db/connection.js';
import { gatewayApiKeys, gatewayTeams, gatewayUsers } from '../../db/schema/gateway.js';

/** A stored team. */
export type TeamRow = typeof gatewayTeams.$inferSelect;
/** A stored user. */
export type UserRow = typeof gatewayUsers.$inferSelect;
/** Columns a team update may change. */
export type TeamPatch = Partial<Omit<TeamRow, 'id' | 'createdAt'>>;
/** Columns a user update may change. */
export type UserPatch = Partial<Omit<UserRow, 'id' | 'createdAt'>>;

/** Which records of a list by id: those after `after`, at most `limit` of them (all when absent). */
export interface IdPage {
  readonly after?: string;
  readonly limit?: number;
}

/** SQL of users and teams. */
export class PrincipalsRepository {
  constructor(private readonly db: Db) {}

  /** Teams by id, bytewise (SQLite's binary order of text): every one, or a page. */
  teams(page: IdPage = {}): TeamRow[] {
    const query = this.db
      .select()
      .from(gatewayTeams)
      .where(page.after === undefined ? undefined : gt(gatewayTeams.id, page.after))
      .orderBy(asc(gatewayTeams.id));
    return page.limit === undefined ? query.all() : query.limit(page.limit).all();
  }

  /** Users by id, bytewise: every one, or those of `team`, or a page of either. */
  users(page: IdPage & { readonly team?: string } = {}): UserRow[] {
    const query = this.db
      .select()
      .from(gatewayUsers)
      .where(
        and(
          page.team === undefined ? undefined : eq(gatewayUsers.team, page.team),
          page.after === undefined ? undefined : gt(gatewayUsers.id, page.after),
        ),
      )
      .orderBy(asc(gatewayUsers.id));
    return page.limit === undefined ? query.all() : query.limit(page.limit).all();
  }

  insertTeam(row: TeamRow): TeamRow {
    return this.db.insert(gatewayTeams).values(row).returning().get();
  }

  insertUser(row: UserRow): UserRow {
    return this.db.insert(gatewayUsers).values(row).returning().get();
  }

  updateTeam(id: string, patch: TeamPatch): TeamRow | undefined {
    return this.db.update(gatewayTeams).set(patch).where(eq(gatewayTeams.id, id)).returning().get();
  }

  updateUser(id: string, patch: UserPatch): UserRow | undefined {
    return this.db.update(gatewayUsers).set(patch).where(eq(gatewayUsers.id, id)).returning().get();
  }

  deleteTeam(id: string): void {
    this.db.delete(gatewayTeams).where(eq(gatewayTeams.id, id)).run();
  }

  deleteUser(id: string): void {
    this.db.delete(gatewayUsers).where(eq(gatewayUsers.id, id)).run();
  }

  /** The ids of the keys a user owns that are not revoked. */
  activeKeyIdsOfUser(user: string): string[] {
    return this.db
      .select({ id: gatewayApiKeys.id })
      .from(gatewayApiKeys)
      .where(sql`${gatewayApiKeys.ownerUser} = ${user} AND ${gatewayApiKeys.revokedAt} IS NULL`)
      .all()
      .map((row) => row.id);
  }

  /** Runs `work` in one transaction: all of its writes, or none when it throws. */
  inTransaction<T>(work: () => T): T {
    return this.db.transaction(() => work());
  }

  /** Keys not revoked, per owner user. */
  activeKeysPerUser(): Map<string, number> {
    return this.countKeys(gatewayApiKeys.ownerUser);
  }

  /** Keys not revoked, per team. */
  activeKeysPerTeam(): Map<string, number> {
    return this.countKeys(gatewayApiKeys.team);
  }

  private countKeys(column: typeof gatewayApiKeys.ownerUser | typeof gatewayApiKeys.team): Map<string, number> {
    const rows = this.db
      .select({ id: column, count: sql<number>`count(*)` })
      .from(gatewayApiKeys)
      .where(sql`${gatewayApiKeys.revokedAt} IS NULL AND ${column} IS NOT NULL`)
      .groupBy(column)
      .all();
    return new Map(rows.map((row) => [row.id as string, row.count]));
  }
}
