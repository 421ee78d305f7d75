import { eq } from 'drizzle-orm';
import type { Db } from '../../db/connection.js';
import { gatewaySettings } from '../../db/schema/gateway.js';

/** A stored settings document. */
export interface StoredSetting<T> {
  readonly value: T;
  readonly updatedAt: number;
}

/** Names of the documents the admin API may override. */
export type SettingName = 'models' | 'deployments' | 'pii' | 'content_policy';

/** SQL of the admin overrides (one JSON document per name). */
export class SettingsRepository {
  constructor(private readonly db: Db) {}

  /** The stored document, or undefined when the configuration file's value is in force. */
  get<T>(name: SettingName): StoredSetting<T> | undefined {
    const row = this.db.select().from(gatewaySettings).where(eq(gatewaySettings.name, name)).get();
    return row ? { value: row.value as T, updatedAt: row.updatedAt } : undefined;
  }

  /** Stores (replaces) a document. */
  put(name: SettingName, value: unknown, updatedAt: number): void {
    this.db
      .insert(gatewaySettings)
      .values({ name, value, updatedAt })
      .onConflictDoUpdate({ target: gatewaySettings.name, set: { value, updatedAt } })
      .run();
  }

  /** Drops a document, returning to the configuration file's value. */
  delete(name: SettingName): void {
    this.db.delete(gatewaySettings).where(eq(gatewaySettings.name, name)).run();
  }
}
