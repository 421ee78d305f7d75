import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configSchema } from '../../src/server/config/schema.js';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/connection.js';
import { buildStoreApp } from '../../src/server/store/app.js';
import type { StoreTokenGrant } from '../../src/server/store/store-auth.js';

/** A full-access token for tests. */
export const ADMIN_TOKEN = 'st-admin-token-0123456789abcdef';

/** A store app over a fresh database; `close()` shuts it and removes the directory. */
export interface TestStore {
  readonly app: FastifyInstance;
  readonly database: DatabaseHandle;
  readonly dir: string;
  /** Sends a JSON request with the admin token (unless `token` says otherwise). */
  call(
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    body?: unknown,
    token?: string | null,
  ): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** Options of {@link buildTestStore}. */
export interface TestStoreOptions {
  readonly auth?: boolean;
  readonly tokens?: readonly StoreTokenGrant[];
  readonly limits?: Record<string, number>;
  readonly metricsPublic?: boolean;
}

/** Builds the store app the way the server does, with auth on and an admin token unless told otherwise. */
export async function buildTestStore(options: TestStoreOptions = {}): Promise<TestStore> {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-store-app-'));
  const config = configSchema.parse({
    server: { data_dir: dir, log_level: 'silent' },
    store: {
      auth: { enabled: options.auth ?? true },
      limits: options.limits ?? {},
      metrics_public: options.metricsPublic ?? false,
    },
  });
  const database = openDatabase(join(dir, 'gatehouse.db'));
  const tokens = options.tokens ?? [
    { name: 'admin', token: ADMIN_TOKEN, verbs: ['read', 'write', 'admin'], namespaces: ['*'] },
  ];
  const app = await buildStoreApp({ config, database, tokens });
  await app.ready();
  return {
    app,
    database,
    dir,
    call: (method, url, body, token = ADMIN_TOKEN) =>
      app.inject({
        method,
        url,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        payload: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      }),
    close: async () => {
      await app.close();
      database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
