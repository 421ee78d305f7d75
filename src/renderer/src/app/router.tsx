import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from 'react';

/** The app's base path (`/ui/`): routes are paths below it. */
export const BASE = import.meta.env.BASE_URL;

const listeners = new Set<() => void>();
const notify = (): void => listeners.forEach((listener) => listener());
window.addEventListener('popstate', notify);

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The current route: the path below the base (`store/history`) and the query. */
export interface Location {
  readonly path: string;
  readonly search: string;
}

let cached: Location | undefined;
function snapshot(): Location {
  const path = window.location.pathname.startsWith(BASE) ? window.location.pathname.slice(BASE.length) : '';
  const search = window.location.search;
  if (!cached || cached.path !== path || cached.search !== search) cached = { path: path.replace(/\/$/, ''), search };
  return cached;
}

/** Re-renders on navigation. */
export function useLocation(): Location {
  return useSyncExternalStore(subscribe, snapshot);
}

/** The query parameters of the current route. */
export function useSearchParams(): URLSearchParams {
  return new URLSearchParams(useLocation().search);
}

/** Builds an app URL from a route path and query values (empty values left out). */
export function href(path: string, query: Readonly<Record<string, string | number | undefined>> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== '') params.set(key, String(value));
  const search = params.toString();
  return `${BASE}${path}${search ? `?${search}` : ''}`;
}

/** Goes to an app URL (from {@link href}) without reloading. */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (to === window.location.pathname + window.location.search) return;
  if (options.replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  notify();
}

/** Replaces some query values of the current route (history entry replaced: selection is not navigation). */
export function updateSearch(values: Readonly<Record<string, string | number | undefined>>): void {
  const params = new URLSearchParams(window.location.search);
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || value === '') params.delete(key);
    else params.set(key, String(value));
  }
  const search = params.toString();
  navigate(`${window.location.pathname}${search ? `?${search}` : ''}`, { replace: true });
}

/** An anchor that navigates inside the app, leaving modified clicks (new tab) to the browser. */
export function Link({ to, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { readonly to: string }) {
  const handle = (event: MouseEvent<HTMLAnchorElement>): void => {
    onClick?.(event);
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    )
      return;
    event.preventDefault();
    navigate(to);
  };
  return <a href={to} onClick={handle} {...rest} />;
}
