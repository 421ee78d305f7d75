import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/connection.js';
import { StoreEngine, type StoreEngineOptions } from '../../src/server/store/engine/store-engine.js';

/** An engine over a fresh database file; `close()` removes it. */
export interface TempEngine {
  readonly engine: StoreEngine;
  readonly database: DatabaseHandle;
  readonly dir: string;
  close(): void;
}

/** Opens a store engine over a new database in a temporary directory. */
export function openTempEngine(options: StoreEngineOptions = {}): TempEngine {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-store-'));
  const database = openDatabase(join(dir, 'store.db'));
  return {
    engine: new StoreEngine(database.sqlite, options),
    database,
    dir,
    close: () => {
      database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Documents `{key, content}` from an object. */
export const docs = (objects: Record<string, string>) =>
  Object.entries(objects).map(([key, content]) => ({ key, content }));
