import { afterAll, beforeAll, expect } from 'vitest';
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

/** A token that reads and writes every namespace, and administers none. */
export const WRITER = 'st-writer-0123456789abcdef0123';
/** A token that administers `team/*` only. */
export const TEAM_ADMIN = 'st-team-admin-0123456789abcdef';

/**
 * A store on a socket with three tokens, for the operations that need `admin`: the full admin token
 * (the default of `send`), {@link WRITER} and {@link TEAM_ADMIN}.
 */
export function adminWriterTeamStore(): SocketStore {
  return socketStore({
    tokens: [
      { name: 'admin', token: ADMIN_TOKEN, verbs: ['read', 'write', 'admin'], namespaces: ['*'] },
      { name: 'writer', token: WRITER, verbs: ['read', 'write'], namespaces: ['*'] },
      { name: 'team-admin', token: TEAM_ADMIN, verbs: ['read', 'write', 'admin'], namespaces: ['team/*'] },
    ],
  });
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

/** A document of an apply: its content, or `delete: true`. */
export type Doc = { key: string; content?: string; delete?: boolean };

/** The writes a branch test sets its history up with over the socket, each checked to succeed. */
export function branchWrites(socket: SocketStore) {
  return {
    /** Applies documents to a branch; the new revision. */
    async apply(namespace: string, branch: string, documents: Doc[]): Promise<number> {
      const answer = await socket.send('POST', '/v1/apply', { scope: { namespace, branch }, documents });
      expect(answer.status).toBe(200);
      return answer.body.revision as number;
    },
    /** Makes branch `name` from `from`'s head, or from `fromRevision` of it. */
    async branchFrom(namespace: string, from: string, name: string, fromRevision?: number) {
      const body = {
        scope: { namespace, branch: from },
        name,
        ...(fromRevision === undefined ? {} : { from_revision: fromRevision }),
      };
      const answer = await socket.send('POST', '/v1/branches', body);
      expect(answer.status).toBe(200);
      return answer.body as { base_revision: number; head_revision: number };
    },
  };
}

/** What a branch holds, as the tests of writes read it back: its state and its log. */
export function branchReads(socket: SocketStore) {
  return {
    async state(namespace: string, branch = 'main') {
      return (await socket.send('GET', `/v1/state?namespace=${namespace}&branch=${branch}`)).body as {
        revision: number;
        objects: Record<string, string>;
      };
    },
    async log(namespace: string, branch = 'main') {
      return (await socket.send('GET', `/v1/log?namespace=${namespace}&branch=${branch}`)).body.entries as {
        id: number;
        parent_id: number;
        message: string;
      }[];
    },
  };
}
