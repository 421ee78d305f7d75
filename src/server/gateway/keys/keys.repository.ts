import type Database from 'better-sqlite3';
import { and, desc, eq, gt, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { ApiKeyStatus } from '../../../shared/gateway-api.js';
import type { Db } from '../../db/connection.js';
import { gatewayApiKeys } from '../../db/schema/gateway.js';
import { assertNever } from '../../../shared/assert-never.js';

/** A stored key row. */
export type ApiKeyRow = typeof gatewayApiKeys.$inferSelect;
/** A new key row. */
export type NewApiKeyRow = typeof gatewayApiKeys.$inferInsert;
/** Columns an update may change. */
export type ApiKeyPatch = Partial<
  Omit<
    ApiKeyRow,
    'id' | 'keyHash' | 'keyPrefix' | 'createdAt' | 'rotatedAt' | 'previousKeyHash' | 'previousKeyExpiresAt'
  >
>;

/** A new secret for a key: its hash and prefix, and until when the one it replaces still works. */
export interface SecretReplacement {
  readonly keyHash: string;
  readonly keyPrefix: string;
  readonly at: number;
  readonly previousExpiresAt: number;
}

/** Filters of a key listing. */
export interface ApiKeyFilter {
  readonly user?: string;
  readonly team?: string;
  readonly issuer?: string;
  readonly includeRevoked: boolean;
  /** Keys of this status at `now` only, as keyStatus judges it (revoked ones whatever `includeRevoked`). */
  readonly status?: { readonly is: ApiKeyStatus; readonly now: number };
  /** Keys whose name holds this text, ignoring the case of A-Z (SQLite's lower()). */
  readonly nameContains?: string;
  /** At most this many (all when absent), after the key `after` in the list's order. */
  readonly limit?: number;
  readonly after?: ApiKeyRow;
}

/** SQL of the keys feature. */
export class KeysRepository {
  private readonly byHash;
  private readonly byPreviousHash;
  private readonly byId;
  private readonly touch: Database.Statement;
  private readonly touchAll: (entries: Iterable<readonly [string, number]>) => void;

  /** `batchSqlite` takes the batched last-use writes (see accounting/batch-connection.ts). */
  constructor(
    private readonly db: Db,
    batchSqlite: Database.Database,
  ) {
    this.byHash = db
      .select()
      .from(gatewayApiKeys)
      .where(eq(gatewayApiKeys.keyHash, sql.placeholder('hash')))
      .prepare();
    this.byPreviousHash = db
      .select()
      .from(gatewayApiKeys)
      .where(eq(gatewayApiKeys.previousKeyHash, sql.placeholder('hash')))
      .prepare();
    this.byId = db
      .select()
      .from(gatewayApiKeys)
      .where(eq(gatewayApiKeys.id, sql.placeholder('id')))
      .prepare();
    this.touch = batchSqlite.prepare(
      'UPDATE gateway_api_keys SET last_used_at = max(coalesce(last_used_at, 0), ?) WHERE id = ?',
    );
    this.touchAll = batchSqlite.transaction((entries: Iterable<readonly [string, number]>) => {
      for (const [id, at] of entries) this.touch.run(at, id);
    });
  }

  /** Stores a new key. */
  insert(row: NewApiKeyRow): ApiKeyRow {
    return this.db.insert(gatewayApiKeys).values(row).returning().get();
  }

  /** The key with this secret hash, if any. */
  findByHash(hash: string): ApiKeyRow | undefined {
    return this.byHash.get({ hash });
  }

  /** The key whose secret before its last rotation has this hash, if any. */
  findByPreviousHash(hash: string): ApiKeyRow | undefined {
    return this.byPreviousHash.get({ hash });
  }

  /**
   * Gives the key a new secret; the current one becomes the previous one (one statement: SQLite reads
   * every right-hand side before it writes). A secret from before an earlier rotation stops working.
   */
  replaceSecret(id: string, next: SecretReplacement): ApiKeyRow | undefined {
    return this.db
      .update(gatewayApiKeys)
      .set({
        previousKeyHash: sql`${gatewayApiKeys.keyHash}`,
        previousKeyExpiresAt: next.previousExpiresAt,
        keyHash: next.keyHash,
        keyPrefix: next.keyPrefix,
        rotatedAt: next.at,
      })
      .where(eq(gatewayApiKeys.id, id))
      .returning()
      .get();
  }

  /** The key with this id, if any. */
  findById(id: string): ApiKeyRow | undefined {
    return this.byId.get({ id });
  }

  /** Keys matching the filter, newest first. */
  list(filter: ApiKeyFilter): ApiKeyRow[] {
    const conditions = [
      filter.user !== undefined ? eq(gatewayApiKeys.ownerUser, filter.user) : undefined,
      filter.team !== undefined ? eq(gatewayApiKeys.team, filter.team) : undefined,
      filter.issuer !== undefined ? eq(gatewayApiKeys.issuer, filter.issuer) : undefined,
      filter.includeRevoked || filter.status !== undefined ? undefined : isNull(gatewayApiKeys.revokedAt),
      filter.status === undefined ? undefined : withStatus(filter.status.is, filter.status.now),
      filter.nameContains === undefined
        ? undefined
        : sql`instr(lower(${gatewayApiKeys.name}), lower(${filter.nameContains})) > 0`,
      filter.after === undefined ? undefined : olderThan(filter.after),
    ].filter((c) => c !== undefined);
    const query = this.db
      .select()
      .from(gatewayApiKeys)
      .where(and(...conditions))
      .orderBy(desc(gatewayApiKeys.createdAt), desc(gatewayApiKeys.id));
    return filter.limit === undefined ? query.all() : query.limit(filter.limit).all();
  }

  /** Applies `patch`; returns the new row, or undefined when the key does not exist. */
  update(id: string, patch: ApiKeyPatch): ApiKeyRow | undefined {
    if (Object.keys(patch).length === 0) return this.findById(id);
    return this.db.update(gatewayApiKeys).set(patch).where(eq(gatewayApiKeys.id, id)).returning().get();
  }

  /** Moves a user's unrevoked keys in team `from` (null: none) to team `to`; returns their ids. */
  moveUserKeys(user: string, from: string | null, to: string | null): string[] {
    const inTeam = from === null ? isNull(gatewayApiKeys.team) : eq(gatewayApiKeys.team, from);
    return this.db
      .update(gatewayApiKeys)
      .set({ team: to })
      .where(and(eq(gatewayApiKeys.ownerUser, user), inTeam, isNull(gatewayApiKeys.revokedAt)))
      .returning({ id: gatewayApiKeys.id })
      .all()
      .map((row) => row.id);
  }

  /** Records last-use times in one transaction (they are batched: a write per request would cost a sync). */
  touchMany(entries: Iterable<readonly [string, number]>): void {
    this.touchAll(entries);
  }
}

/** Keys after `key` in newest-first order: issued before it, or at the same millisecond with a smaller id. */
function olderThan(key: ApiKeyRow) {
  return or(
    lt(gatewayApiKeys.createdAt, key.createdAt),
    and(eq(gatewayApiKeys.createdAt, key.createdAt), lt(gatewayApiKeys.id, key.id)),
  );
}

/** Keys whose status at `now` is `status` (see keyStatus: revoked first, then expired). */
function withStatus(status: ApiKeyStatus, now: number) {
  const { revokedAt, expiresAt } = gatewayApiKeys;
  switch (status) {
    case 'revoked':
      return isNotNull(revokedAt);
    case 'expired':
      return and(isNull(revokedAt), lte(expiresAt, now));
    case 'active':
      return and(isNull(revokedAt), or(isNull(expiresAt), gt(expiresAt, now)));
    default:
      return assertNever(status, 'key status');
  }
}
