import { z } from 'zod';
import { ApiError, createApiClient } from '../api/http.js';
import type { Connection } from './connection.js';

/** Which credential a failed sign-in is about, for the form to mark the right field. */
export interface VerifyFailure {
  readonly field: 'masterKey' | 'storeToken' | 'form';
  readonly message: string;
}

const anything = z.unknown();

/** An endpoint that is not there yet cannot judge a credential: only 401/403 and network errors fail. */
async function check(run: () => Promise<unknown>): Promise<ApiError | undefined> {
  try {
    await run();
    return undefined;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return error.status === 0 || error.status === 401 || error.status === 403 ? error : undefined;
  }
}

/**
 * Tries both credentials against the services before the UI is shown, both at once: with both wrong,
 * each field says so, rather than the second only after the first is fixed. Empty: both accepted.
 */
export async function verifyConnection(connection: Connection): Promise<readonly VerifyFailure[]> {
  const api = createApiClient(connection);
  const [gateway, store] = await Promise.all([
    check(() => api.request('gateway', '/internal/api-keys', { schema: anything })),
    check(() => api.request('store', '/v1/namespaces', { query: { limit: 1 }, schema: anything })),
  ]);
  const failures: VerifyFailure[] = [];
  if (gateway)
    failures.push(
      gateway.status === 0
        ? { field: 'form', message: gateway.message }
        : { field: 'masterKey', message: `The gateway did not accept this master key: ${gateway.message}` },
    );
  if (store)
    failures.push(
      store.status === 0
        ? { field: 'form', message: store.message }
        : { field: 'storeToken', message: `The store did not accept this token: ${store.message}` },
    );
  return failures;
}
