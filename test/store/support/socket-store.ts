import { afterAll, beforeAll } from 'vitest';
import { ADMIN_TOKEN, buildTestStore, type TestStore, type TestStoreOptions } from '../app-helpers.js';

/** A JSON answer read over the socket. */
export interface SocketAnswer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/** The store of a suite, listening on a loopback port; read its fields inside tests (after `beforeAll`). */
export interface SocketStore {
  readonly store: TestStore;
  /** `http://127.0.0.1:<port>`. */
  readonly base: string;
  /** Sends a request with the admin token (or `token`), and a JSON body when one is given. */
  send(method: string, path: string, body?: unknown, token?: string): Promise<SocketAnswer>;
}

/** Starts a test store on a real socket before the suite's tests and closes it after them. */
export function socketStore(options: TestStoreOptions = {}): SocketStore {
  let store: TestStore | undefined;
  let base = '';
  beforeAll(async () => {
    store = await buildTestStore(options);
    base = await store.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => store?.close());
  return {
    get store() {
      if (!store) throw new Error('the socket store starts in beforeAll');
      return store;
    },
    get base() {
      return base;
    },
    async send(method, path, body, token = ADMIN_TOKEN) {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    },
  };
}
