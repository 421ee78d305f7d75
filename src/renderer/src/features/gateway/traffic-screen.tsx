import { useCallback, useEffect, useMemo, useState } from 'react';
import type { TrafficEvent } from '../../../../shared/gateway-api.js';
import { useTrafficBuffer, useTrafficConnected, useTrafficEvents } from '../../api/gateway-events.js';
import { CopyButton } from '../../components/copy-button.js';
import { EmptyState } from '../../components/feedback.js';
import { ActivityIcon } from '../../components/icons.js';
import { VirtualList } from '../../components/virtual-list.js';
import { useSession } from '../../connection/connection-context.js';
import { useFilterShortcut } from '../../lib/use-filter-shortcut.js';
import { isTypingTarget } from '../../lib/use-list-navigation.js';
import { TrafficDrawer } from './traffic-drawer.js';
import { matches, NO_FILTER, type TrafficFilter } from './traffic-filter.js';
import { TrafficHeader, TrafficRow, trafficRowLabel } from './traffic-row.js';
import { TrafficToolbar } from './traffic-toolbar.js';

function firstRequest(gatewayUrl: string): string {
  return `curl ${gatewayUrl}/v1/chat/completions \\\n  -H "Authorization: Bearer $GATEHOUSE_API_KEY" \\\n  -H "Content-Type: application/json" \\\n  -d '{"model": "demo/echo", "messages": [{"role": "user", "content": "Hello"}]}'`;
}

/** Space pauses and resumes, outside text fields. */
function useSpaceToggle(toggle: () => void): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      if (event.key !== ' ' || isTypingTarget(event.target) || document.querySelector('dialog[open]')) return;
      event.preventDefault();
      toggle();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [toggle]);
}

/**
 * Requests through the gateway as they happen. The buffer keeps filling while the view is paused;
 * resuming shows everything that arrived. Rows are virtualised and updates batched per frame.
 */
export function TrafficScreen() {
  const { connection } = useSession();
  const buffer = useTrafficBuffer();
  const live = useTrafficEvents(buffer);
  const connected = useTrafficConnected(buffer);
  const [frozen, setFrozen] = useState<readonly TrafficEvent[]>();
  const [filter, setFilter] = useState<TrafficFilter>(NO_FILTER);
  const [selectedSeq, setSelectedSeq] = useState<number>();
  const [open, setOpen] = useState(false);
  const filterRef = useFilterShortcut();
  const togglePause = useCallback(() => setFrozen((current) => (current ? undefined : buffer.snapshot())), [buffer]);
  useSpaceToggle(togglePause);

  const events = frozen ?? live;
  const newCount = frozen ? live.findIndex((event) => event.seq <= (frozen[0]?.seq ?? -1)) : 0;
  const shown = useMemo(() => events.filter((event) => matches(event, filter)), [events, filter]);
  const models = useMemo(
    () => [...new Set(live.map((event) => event.model).filter((model): model is string => Boolean(model)))].sort(),
    [live],
  );
  const keys = useMemo(() => {
    const byId = new Map<string, string>();
    for (const event of live) if (event.key_id) byId.set(event.key_id, event.key_name ?? event.key_id);
    return [...byId].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name));
  }, [live]);
  const selectedIndex = selectedSeq === undefined ? -1 : shown.findIndex((event) => event.seq === selectedSeq);
  const selected = selectedIndex >= 0 ? shown[selectedIndex] : undefined;
  const closeDrawer = useCallback(() => setOpen(false), []);

  return (
    <div className={open && selected ? 'traffic with-drawer' : 'traffic'} data-testid="traffic-screen">
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
      />
      <div className="traffic-body">
        <div className="traffic-table">
          <TrafficHeader />
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
              testId="traffic-list"
              count={shown.length}
              rowHeight={36}
              autoFocus
              openOnClick
              selected={selectedIndex}
              onSelect={(index) => setSelectedSeq(shown[index]!.seq)}
              onOpen={(index) => {
                setSelectedSeq(shown[index]!.seq);
                setOpen(true);
              }}
              onClose={closeDrawer}
              rowKey={(index) => shown[index]!.seq}
              rowLabel={(index) => trafficRowLabel(shown[index]!)}
              renderRow={(index) => <TrafficRow event={shown[index]!} />}
            />
          )}
        </div>
        {open && selected && <TrafficDrawer event={selected} onClose={closeDrawer} />}
      </div>
    </div>
  );
}
