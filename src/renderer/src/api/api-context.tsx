import { createContext, useContext, type ReactNode } from 'react';
import type { ApiClient } from './http.js';

const ApiContext = createContext<ApiClient | undefined>(undefined);

/** Makes the signed-in API client available to hooks below. */
export function ApiProvider({ client, children }: { readonly client: ApiClient; readonly children: ReactNode }) {
  return <ApiContext.Provider value={client}>{children}</ApiContext.Provider>;
}

/** The API client of the current connection. */
export function useApi(): ApiClient {
  const client = useContext(ApiContext);
  if (!client) throw new Error('useApi outside ApiProvider');
  return client;
}
