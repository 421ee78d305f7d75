import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from 'react';

/** The app's base path (`/ui/`): routes are paths below it. */
export const BASE = import.meta.env.BASE_URL;

/** The current route: the path below the base (`store/history`) and the query. */
export interface Location {
  readonly path: string;
  readonly search: string;
}

/**
 * Asked before a navigation that would leave the current screen (its path changes). While `holds()`,
 * the navigation waits for `ask`, which calls `proceed` to carry it out once the user agreed (or never).
 */
export interface LeaveGuard {
  readonly holds: () => boolean;
  readonly ask: (proceed: () => void) => void;
}

/** The route path of an address's path name (`/ui/store/history/` is `store/history`). */
function routePath(pathname: string): string {
  return (pathname.startsWith(BASE) ? pathname.slice(BASE.length) : '').replace(/\/$/, '');
}

function read(): Location {
  return { path: routePath(window.location.pathname), search: window.location.search };
}

const listeners = new Set<() => void>();
let leaveGuard: LeaveGuard | undefined;
// The route on screen: the address, except while a Back or Forward is held for the leave guard (the
// address bar already shows its target until the router has stepped back).
let current = read();
let held = false;
function snapshot(): Location {
  const next = held ? current : read();
  if (next.path !== current.path || next.search !== current.search) current = next;
  return current;
}
// Where the current entry sits in the session history: entries the app makes carry their position
// in `history.state`, so a Back or Forward that is held back can be undone and later redone.
const positionOf = (state: unknown): number | undefined =>
  typeof (state as { position?: unknown } | null)?.position === 'number'
    ? (state as { position: number }).position
    : undefined;
let position = positionOf(window.history.state) ?? 0;
if (positionOf(window.history.state) === undefined) window.history.replaceState({ position }, '');
// A history move the router makes itself: undoing a held Back or Forward (then asking the guard),
// or redoing it once allowed (let through).
let ownMove: { readonly kind: 'undo'; readonly then: () => void } | { readonly kind: 'redo' } | undefined;

const publish = (): void => listeners.forEach((listener) => listener());

window.addEventListener('popstate', (event) => {
  const target = positionOf(event.state);
  const move = ownMove;
  ownMove = undefined;
  if (move?.kind === 'undo') {
    held = false;
    move.then();
    return;
  }
  const guard = leaveGuard;
  if (move?.kind === 'redo' || read().path === current.path || !guard?.holds()) {
    position = target ?? position;
    publish();
    return;
  }
  // Put the screen's own entry back, then ask; the same move is made again if the user agrees.
  const delta = target === undefined ? 0 : position - target;
  if (delta === 0) {
    // An entry the app did not make: the way back to it is unknown, so the screen's address is pushed again.
    const away = `${window.location.pathname}${window.location.search}`;
    window.history.pushState({ position }, '', `${BASE}${current.path}${current.search}`);
    guard.ask(() => navigateNow(away, false));
    return;
  }
  held = true;
  ownMove = {
    kind: 'undo',
    then: () =>
      guard.ask(() => {
        ownMove = { kind: 'redo' };
        window.history.go(-delta);
      }),
  };
  window.history.go(delta);
});

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Sets the guard asked before leaving the current screen (one at a time: the app's unsaved-changes
 * prompt); `undefined` removes it.
 */
export function setLeaveGuard(guard: LeaveGuard | undefined): void {
  leaveGuard = guard;
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

function navigateNow(to: string, replace: boolean): void {
  if (replace) window.history.replaceState({ position }, '', to);
  else window.history.pushState({ position: ++position }, '', to);
  publish();
}

/**
 * Goes to an app URL (from {@link href}) without reloading. One that leaves the current screen asks
 * the leave guard first.
 */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (to === window.location.pathname + window.location.search) return;
  const replace = options.replace ?? false;
  const leaving = routePath(new URL(to, window.location.href).pathname) !== current.path;
  if (leaving && leaveGuard?.holds()) leaveGuard.ask(() => navigateNow(to, replace));
  else navigateNow(to, replace);
}

/** Asks the leave guard before something that leaves the screen without a navigation (signing out). */
export function confirmLeave(proceed: () => void): void {
  if (leaveGuard?.holds()) leaveGuard.ask(proceed);
  else proceed();
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
