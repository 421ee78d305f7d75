import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { NamespaceSummary } from '../../../shared/store-api.js';
import { changedNamespaces } from '../lib/namespace-changes.js';
import { queryKeys } from './query-keys.js';
import { useNamespaces } from './store-queries.js';

/**
 * How often the namespace list is read again while the page is visible. The store sends no events,
 * and documents are written from elsewhere (a terminal, an app), usually while the page stays in
 * view beside it, so a refetch when the page becomes visible again never comes.
 */
const STORE_POLL_MS = 3_000;

/**
 * Follows writes made outside this page: reads the namespace list every few seconds, and refreshes
 * every view of a namespace whose summary changed meanwhile.
 */
export function useStoreChanges(): void {
  const client = useQueryClient();
  const listed = useNamespaces(STORE_POLL_MS).data?.namespaces;
  const seen = useRef<readonly NamespaceSummary[] | undefined>(undefined);
  useEffect(() => {
    if (!listed) return;
    const before = seen.current;
    seen.current = listed;
    if (!before) return;
    for (const name of changedNamespaces(before, listed))
      void client.invalidateQueries({ queryKey: queryKeys.store.namespace(name) });
  }, [client, listed]);
}
