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

/** Tries both credentials against the services before the UI is shown. */
export async function verifyConnection(connection: Connection): Promise<VerifyFailure | undefined> {
  const api = createApiClient(connection);
  const gateway = await check(() => api.request('gateway', '/internal/api-keys', { schema: anything }));
  if (gateway) {
    return gateway.status === 0
      ? { field: 'form', message: gateway.message }
      : { field: 'masterKey', message: `The gateway did not accept this master key: ${gateway.message}` };
  }
  const store = await check(() => api.request('store', '/v1/namespaces', { query: { limit: 1 }, schema: anything }));
  if (store) {
    return store.status === 0
      ? { field: 'form', message: store.message }
      : { field: 'storeToken', message: `The store did not accept this token: ${store.message}` };
  }
  return undefined;
}
