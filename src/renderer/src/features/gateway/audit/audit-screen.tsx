import { useCallback, useMemo, useState } from 'react';
import type { AuditEvent } from '../../../../../shared/gateway-api.js';
import { updateSearch, useLocation } from '../../../app/router.js';
import { useAuditEvents } from '../../../api/audit-queries.js';
import { Button } from '../../../components/button.js';
import { DataTable, type Column } from '../../../components/data-table.js';
import { EmptyState, ErrorMessage, Loading } from '../../../components/feedback.js';
import { HistoryIcon } from '../../../components/icons.js';
import { PageHeader } from '../../../components/page.js';
import { fullTime, timeAgo } from '../../../lib/format.js';
import { useFilterShortcut } from '../../../lib/use-filter-shortcut.js';
import { useMinute } from '../../../lib/use-minute.js';
import { eventSummary } from './audit-changes.js';
import { AuditDrawer } from './audit-drawer.js';
import { apiFilter, filterFromSearch, isFiltered, type AuditAddressFilter } from './audit-filter.js';
import { AuditTarget } from './audit-target.js';
import { AuditToolbar } from './audit-toolbar.js';

/** Who acted, with the name the caller gave (`x-gatehouse-changed-by`) when it gave one. */
function actorText(event: AuditEvent): string {
  return event.changed_by ? `${event.actor} (${event.changed_by})` : event.actor;
}

/**
 * Every admin change the gateway audited (keys, budgets, users and teams, models, deployments, PII,
 * policy, cache), newest first, read a page at a time. The filters are in the address (`action`,
 * `target`, `from`, `to`), so a reload or a shared link shows the same events; a row opens what the
 * event changed, field by field.
 */
export function AuditScreen() {
  const filter = filterFromSearch(new URLSearchParams(useLocation().search));
  const query = apiFilter(filter);
  const events = useAuditEvents(query);
  const rows = useMemo(() => events.data?.pages.flatMap((page) => page.data) ?? [], [events.data]);
  const [openedId, setOpenedId] = useState<number>();
  const opened = rows.find((event) => event.id === openedId);
  const [focusList, setFocusList] = useState(0);
  const [firstOlder, setFirstOlder] = useState<{ readonly key: string }>();
  // Focus goes on to the first event the older page added (Load older is gone after the last page).
  const loadOlder = async (before: number): Promise<void> => {
    const first = (await events.fetchNextPage()).data?.pages.flatMap((page) => page.data)[before];
    if (first) setFirstOlder({ key: String(first.id) });
  };
  const filterRef = useFilterShortcut();
  // Re-rendered each minute, so "3 minutes ago" stays true while the screen is open.
  const minute = useMinute();
  const setFilter = (next: AuditAddressFilter): void =>
    updateSearch({ action: next.action, target: next.target.trim(), from: next.from, to: next.to });
  const closeDrawer = useCallback((focusWasInside: boolean) => {
    setOpenedId(undefined);
    if (focusWasInside) setFocusList((count) => count + 1);
  }, []);

  const columns: Column<AuditEvent>[] = [
    {
      header: 'Time',
      cell: (event) => (
        <time dateTime={event.created_at} title={fullTime(event.created_at)}>
          {timeAgo(event.created_at, Math.max(minute, Date.now()))}
        </time>
      ),
    },
    {
      header: 'Actor',
      priority: 'medium',
      cell: (event) => (
        <span className="mono truncate" title={actorText(event)}>
          {actorText(event)}
        </span>
      ),
    },
    { header: 'Action', cell: (event) => <span className="mono">{event.action}</span> },
    { header: 'Target', cell: (event) => <AuditTarget event={event} /> },
    {
      header: 'Change',
      cell: (event) => {
        const summary = eventSummary(event);
        return (
          <span className="truncate muted audit-summary" title={summary} data-testid="audit-summary">
            {summary}
          </span>
        );
      },
    },
  ];

  const list = events.isPending ? (
    <Loading />
  ) : !events.data ? (
    <ErrorMessage
      error={events.error}
      title="Could not load the audit trail"
      onRetry={() => void events.refetch()}
      retrying={events.isFetching}
    />
  ) : rows.length === 0 ? (
    isFiltered(filter) ? (
      <EmptyState
        icon={<HistoryIcon size={28} />}
        title="No event matches the filters"
        action={
          <Button size="sm" onClick={() => setFilter({ action: '', target: '', from: '', to: '' })}>
            Clear filters
          </Button>
        }
      />
    ) : (
      <EmptyState icon={<HistoryIcon size={28} />} title="No admin changes yet">
        Issuing, changing and revoking keys, budgets, users and teams, models, deployments, PII and policy settings and
        the cache are recorded here, with who made them and what changed.
      </EmptyState>
    )
  ) : (
    <>
      <DataTable
        rows={rows}
        columns={columns}
        rowKey={(event) => String(event.id)}
        onOpen={(event) => setOpenedId(event.id)}
        label="Audit events"
        testId="audit-table"
        autoFocus
        focusToken={focusList}
        focusRow={firstOlder}
      />
      {events.hasNextPage && (
        <div>
          <Button
            size="sm"
            busy={events.isFetchingNextPage}
            onClick={() => void loadOlder(rows.length)}
            data-testid="audit-load-older"
          >
            Load older
          </Button>
        </div>
      )}
      {/* A later page (or a refresh) that failed leaves the events read so far on screen. */}
      {events.isError && (
        <ErrorMessage
          error={events.error}
          title={events.isFetchNextPageError ? 'Could not load older events' : 'Could not refresh the audit trail'}
        />
      )}
    </>
  );

  return (
    <div className={opened ? 'traffic with-drawer' : 'traffic'} data-testid="audit-screen">
      <PageHeader
        title="Audit"
        subtitle="Who changed what in the gateway, newest first. Credentials are never recorded."
        actions={
          <Button
            size="sm"
            busy={events.isRefetching && !events.isFetchingNextPage}
            onClick={() => void events.refetch()}
          >
            Refresh
          </Button>
        }
      />
      <AuditToolbar filter={filter} onFilter={setFilter} filterRef={filterRef} />
      <div className="traffic-body">
        <div className="traffic-table">
          <div className="page-body">{list}</div>
        </div>
        {opened && <AuditDrawer event={opened} onClose={closeDrawer} />}
      </div>
    </div>
  );
}
