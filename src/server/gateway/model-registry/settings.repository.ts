import { eq } from 'drizzle-orm';
import type { Db } from '../../db/connection.js';
import { gatewaySettings } from '../../db/schema/gateway.js';
import { SecretBox } from '../../config/secret-box.js';

/** A stored settings document. */
export interface StoredSetting<T> {
  readonly value: T;
  readonly updatedAt: number;
}

/** Names of the documents the admin API may override. */
export type SettingName = 'models' | 'deployments' | 'pii' | 'content_policy' | 'cache';

/**
 * SQL of the admin overrides (one JSON document per name). With a SecretBox, the deployments' provider
 * keys (`api_key`) are sealed as they are written and opened as they are read: callers see them plain.
 */
export class SettingsRepository {
  constructor(
    private readonly db: Db,
    private readonly secrets?: SecretBox,
  ) {}

  /** The stored document, or undefined when the configuration file's value is in force; SealedValueUnreadable for a key the box cannot open. */
  get<T>(name: SettingName): StoredSetting<T> | undefined {
    const row = this.db.select().from(gatewaySettings).where(eq(gatewaySettings.name, name)).get();
    if (!row) return undefined;
    const { secrets } = this;
    const value = name === 'deployments' && secrets ? mapApiKeys(row.value, (key) => secrets.open(key)) : row.value;
    return { value: value as T, updatedAt: row.updatedAt };
  }

  /** Stores (replaces) a document. */
  put(name: SettingName, value: unknown, updatedAt: number): void {
    const { secrets } = this;
    const stored = name === 'deployments' && secrets ? mapApiKeys(value, (key) => secrets.seal(key)) : value;
    this.write(this.db, name, stored, updatedAt);
  }

  /** Drops a document, returning to the configuration file's value. */
  delete(name: SettingName): void {
    this.db.delete(gatewaySettings).where(eq(gatewaySettings.name, name)).run();
  }

  /**
   * Seals the provider keys an earlier version stored in plain text, in one transaction, and checks
   * that every sealed one opens (SealedValueUnreadable otherwise). Returns how many were sealed.
   */
  sealPlainKeys(): number {
    const { secrets } = this;
    if (!secrets) return 0;
    return this.db.transaction((tx) => {
      const row = tx.select().from(gatewaySettings).where(eq(gatewaySettings.name, 'deployments')).get();
      if (!row) return 0;
      let sealed = 0;
      const value = mapApiKeys(row.value, (key) => {
        if (SecretBox.isSealed(key)) {
          secrets.open(key);
          return key;
        }
        sealed += 1;
        return secrets.seal(key);
      });
      if (sealed > 0) this.write(tx, 'deployments', value, row.updatedAt);
      return sealed;
    });
  }

  private write(db: Pick<Db, 'insert'>, name: SettingName, value: unknown, updatedAt: number): void {
    db.insert(gatewaySettings)
      .values({ name, value, updatedAt })
      .onConflictDoUpdate({ target: gatewaySettings.name, set: { value, updatedAt } })
      .run();
  }
}

/** The deployments document with each deployment's `api_key` replaced (other documents and fields as they are). */
function mapApiKeys(document: unknown, change: (key: string) => string): unknown {
  if (!Array.isArray(document)) return document;
  return document.map((deployment: unknown) => {
    if (typeof deployment !== 'object' || deployment === null) return deployment;
    const { api_key: key } = deployment as { api_key?: unknown };
    return typeof key === 'string' ? { ...deployment, api_key: change(key) } : deployment;
  });
}
