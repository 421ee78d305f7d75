import { useSyncExternalStore } from 'react';
import { href } from '../../app/router.js';
import { filterToSearch, NO_FILTER, type TrafficFilter } from './traffic-filter.js';

/**
 * The Live traffic filter last shown, for this tab: leaving the screen and coming back (the sidebar,
 * `g t`) shows the same requests, as pausing is kept, rather than dropping the filter typed there.
 * The address stays the truth while on the screen; this only fills the links that lead back to it.
 */
let remembered: TrafficFilter = NO_FILTER;
const listeners = new Set<() => void>();

/** Keeps the filter the screen shows now. */
export function rememberTrafficFilter(filter: TrafficFilter): void {
  if (sameFilter(filter, remembered)) return;
  remembered = filter;
  for (const listener of listeners) listener();
}

/** The address of Live traffic with the filter last shown. */
export function trafficHref(): string {
  return href('gateway/traffic', filterToSearch(remembered));
}

/** {@link trafficHref}, kept current for a link rendered elsewhere (the sidebar). */
export function useTrafficHref(): string {
  return useSyncExternalStore(subscribe, trafficHref);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function sameFilter(a: TrafficFilter, b: TrafficFilter): boolean {
  return a.text === b.text && a.status === b.status && a.model === b.model && a.key === b.key;
}
