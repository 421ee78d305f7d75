import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { updateSearch, useLocation } from '../../app/router.js';
import type { TrafficEvent } from '../../../../shared/gateway-api.js';
import { useMissedTraffic, useTrafficBuffer, useTrafficConnected, useTrafficEvents } from '../../api/gateway-events.js';
import { useModelSettings } from '../../api/gateway-queries.js';
import { CopyButton } from '../../components/copy-button.js';
import { EmptyState } from '../../components/feedback.js';
import { ActivityIcon } from '../../components/icons.js';
import { VirtualList } from '../../components/virtual-list.js';
import { useSession } from '../../connection/connection-context.js';
import { useFilterShortcut } from '../../lib/use-filter-shortcut.js';
import { isTypingTarget } from '../../lib/use-list-navigation.js';
import { MissingRequestDrawer, TrafficDrawer } from './traffic-drawer.js';
import { filterFromSearch, filterToSearch, matches, type TrafficFilter } from './traffic-filter.js';
import { TrafficMissedNotice } from './traffic-missed-notice.js';
import { rememberTrafficFilter } from './traffic-filter-memory.js';
import { TrafficHeader, TrafficRow, trafficRowLabel } from './traffic-row.js';
import { TrafficToolbar } from './traffic-toolbar.js';

function firstRequest(gatewayUrl: string): string {
  return `curl ${gatewayUrl}/v1/chat/completions \\\n  -H "Authorization: Bearer $GATEHOUSE_API_KEY" \\\n  -H "Content-Type: application/json" \\\n  -d '{"model": "demo/echo", "messages": [{"role": "user", "content": "Hello"}]}'`;
}

/** The list's id, which the filter controls (`aria-controls`), also while it is empty. */
const TRAFFIC_LIST_ID = 'traffic-list';

/**
 * The Requests list while it shows none: there from the start, named and saying why it is empty, so
 * a script or a screen reader finds the list before the first request arrives.
 */
function EmptyRequestList({ reason }: { readonly reason: string }) {
  // The reason as `aria-description`, not as a hidden copy of the empty state's title: a second copy of
  // that text would be found twice by it.
  return (
    <div
      role="listbox"
      aria-label="Requests"
      aria-description={reason}
      id={TRAFFIC_LIST_ID}
      data-testid="traffic-list"
    />
  );
}

/** Space on a button or link presses it (Close details, Copy as curl): the shortcut leaves it to them. */
function pressesControl(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && target.closest('button, a[href], summary, [role="button"]') !== null;
}

/** Space pauses and resumes, outside text fields and off buttons and links. */
function useSpaceToggle(toggle: () => void): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      if (event.key !== ' ' || isTypingTarget(event.target) || pressesControl(event.target)) return;
      if (document.querySelector('dialog[open]')) return;
      event.preventDefault();
      toggle();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [toggle]);
}

/**
 * Requests through the gateway as they happen. The buffer keeps filling while the view is paused;
 * resuming shows everything that arrived. Requests the gateway dropped before they reached the view
 * are counted in a notice until it is dismissed. Rows are virtualised and updates batched per frame. The
 * filters and the open request live in the address (`q`, `status`, `model`, `key`, `request`), so a
 * reload, Back and Forward, and a link someone pasted show the same requests.
 */
export function TrafficScreen() {
  const { connection } = useSession();
  const buffer = useTrafficBuffer();
  const live = useTrafficEvents(buffer);
  const connected = useTrafficConnected(buffer);
  const missed = useMissedTraffic(buffer);
  // Today's prices tell an unpriced request's "unpriced" from a free one's "$0".
  const prices = useModelSettings().data;
  const frozen = useSyncExternalStore(buffer.subscribe, buffer.paused);
  const { search } = useLocation();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const filter = useMemo(() => filterFromSearch(params), [params]);
  useEffect(() => rememberTrafficFilter(filter), [filter]);
  const requestId = params.get('request') || undefined;
  const [selectedSeq, setSelectedSeq] = useState<number>();
  // A number asks the list to take focus now: after the drawer closed with focus inside it.
  const [focusList, setFocusList] = useState(0);
  const filterRef = useFilterShortcut();
  const togglePause = useCallback(() => buffer.togglePause(), [buffer]);
  useSpaceToggle(togglePause);
  const setFilter = useCallback((next: TrafficFilter) => updateSearch(filterToSearch(next)), []);

  const events = frozen ?? live;
  const newCount = frozen ? live.findIndex((event) => event.seq <= (frozen[0]?.seq ?? -1)) : 0;
  const shown = useMemo(() => events.filter((event) => matches(event, filter)), [events, filter]);
  // The choices are what the buffer holds (a request refused before its model resolved, by the name it
  // asked for), plus the one a link asked for before its requests arrive.
  const models = useMemo(
    () =>
      [
        ...new Set(
          [...live.map((event) => event.model ?? event.requested_model), filter.model].filter(
            (model): model is string => Boolean(model),
          ),
        ),
      ].sort(),
    [live, filter.model],
  );
  const keys = useMemo(() => {
    const byId = new Map<string, string>();
    for (const event of live) if (event.key_id) byId.set(event.key_id, event.key_name ?? event.key_id);
    if (filter.key && !byId.has(filter.key)) byId.set(filter.key, filter.key);
    // Two keys of one name (two laptops called "ci") are told apart by their ids.
    const named = new Map<string, number>();
    for (const name of byId.values()) named.set(name, (named.get(name) ?? 0) + 1);
    return [...byId]
      .map(([id, name]) => ({ id, name: (named.get(name) ?? 0) > 1 ? `${name} (${id})` : name }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }, [live, filter.key]);
  // The open request: the one the address names (the highlighted one when several share its id).
  const opened = useMemo(() => {
    if (!requestId) return undefined;
    const named = (list: readonly TrafficEvent[]) =>
      list.find((event) => event.request_id === requestId && event.seq === selectedSeq) ??
      list.find((event) => event.request_id === requestId);
    return named(events) ?? named(live);
  }, [requestId, selectedSeq, events, live]);
  const highlighted = requestId ? opened?.seq : selectedSeq;
  const selectedIndex = highlighted === undefined ? -1 : shown.findIndex((event) => event.seq === highlighted);
  const openRequest = useCallback((event: TrafficEvent) => {
    setSelectedSeq(event.seq);
    updateSearch({ request: event.request_id });
  }, []);
  // From the filter (↓, Enter): the first match highlighted, or opened, and the list focused to go on from it.
  const enterList = useCallback(
    (open: boolean) => {
      const first = shown[0];
      if (!first) return;
      if (open || requestId) openRequest(first);
      else setSelectedSeq(first.seq);
      setFocusList((count) => count + 1);
    },
    [shown, requestId, openRequest],
  );
  const openedSeq = opened?.seq;
  const closeDrawer = useCallback(
    (focusWasInside = false) => {
      // The request stays highlighted, also one a link or a reload opened, so j and k go on from it.
      if (openedSeq !== undefined) setSelectedSeq(openedSeq);
      updateSearch({ request: undefined });
      if (focusWasInside) setFocusList((count) => count + 1);
    },
    [openedSeq],
  );
  const drawer = !requestId ? undefined : opened ? (
    <TrafficDrawer event={opened} onClose={closeDrawer} />
  ) : (
    // Only once the buffer holds what the gateway kept: before that, the request may still arrive.
    connected && <MissingRequestDrawer requestId={requestId} onClose={closeDrawer} />
  );

  return (
    <div className={drawer ? 'traffic with-drawer' : 'traffic'} data-testid="traffic-screen">
      <h1 className="visually-hidden">Live traffic</h1>
      <TrafficToolbar
        connected={connected}
        paused={frozen !== undefined}
        newCount={newCount < 0 ? live.length : newCount}
        onTogglePause={togglePause}
        filter={filter}
        onFilter={setFilter}
        models={models}
        keys={keys}
        shown={shown.length}
        total={events.length}
        filterRef={filterRef}
        listId={TRAFFIC_LIST_ID}
        onEnterList={enterList}
      />
      {missed && <TrafficMissedNotice missed={missed} onDismiss={() => buffer.dismissMissed()} />}
      <div className="traffic-body">
        <div className="traffic-table">
          <TrafficHeader />
          {shown.length === 0 && (
            <EmptyRequestList reason={events.length === 0 ? 'No requests yet' : 'No request matches the filters'} />
          )}
          {events.length === 0 ? (
            <EmptyState
              icon={<ActivityIcon size={28} />}
              title="No requests yet"
              action={<CopyButton text={firstRequest(connection.gatewayUrl)} label="Copy command" />}
            >
              <p>
                Requests through the gateway appear here the moment they finish, with their bodies. Send one with a key
                from the Keys screen:
              </p>
              <pre className="code-block">{firstRequest(connection.gatewayUrl)}</pre>
            </EmptyState>
          ) : shown.length === 0 ? (
            <EmptyState title="No request matches the filters" />
          ) : (
            <VirtualList
              label="Requests"
              testId={TRAFFIC_LIST_ID}
              count={shown.length}
              rowHeight={36}
              autoFocus={focusList || true}
              openOnClick
              selected={selectedIndex}
              // With the drawer open it follows the highlighted request, address and all.
              onSelect={(index) => (requestId ? openRequest(shown[index]!) : setSelectedSeq(shown[index]!.seq))}
              onOpen={(index) => openRequest(shown[index]!)}
              onClose={closeDrawer}
              rowKey={(index) => shown[index]!.seq}
              rowLabel={(index) => trafficRowLabel(shown[index]!, prices)}
              renderRow={(index) => <TrafficRow event={shown[index]!} prices={prices} />}
            />
          )}
        </div>
        {drawer}
      </div>
    </div>
  );
}
