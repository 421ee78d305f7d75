import type { AuditEvent } from '../../../../../shared/gateway-api.js';
import { useEarlierEvents } from '../../../api/audit-queries.js';
import { Drawer } from '../../../components/drawer.js';
import { ErrorMessage, Loading } from '../../../components/feedback.js';
import { fullTime } from '../../../lib/format.js';
import { eventChanges } from './audit-changes.js';
import { ChangesTable, DetailsTable } from './audit-changes-table.js';
import { AuditTarget } from './audit-target.js';
import { Detail } from '../../../components/detail-item.js';

/**
 * One audit event: who, when, from where, and what changed as a table of fields before and after.
 * Credentials never reach it: the gateway redacts them before the event is stored.
 */
export function AuditDrawer({
  event,
  onClose,
}: {
  readonly event: AuditEvent;
  readonly onClose: (focusWasInside: boolean) => void;
}) {
  // A key's update recorded by an earlier version holds only its new values: the old ones come from the
  // key's earlier events.
  const readsHistory = event.action === 'api_key.update' && !(event.details !== null && 'before' in event.details);
  const earlier = useEarlierEvents(event, readsHistory);
  const { changes, details, beforeFromHistory } = eventChanges(event, earlier.data?.data);
  return (
    <Drawer title={event.action} onClose={onClose} testId="audit-drawer">
      <dl className="detail-grid">
        <Detail label="Time">{fullTime(event.created_at)}</Detail>
        <Detail label="Target">
          <AuditTarget event={event} />
        </Detail>
        <Detail label="Actor">
          <span className="mono">{event.actor}</span>
        </Detail>
        <Detail label="Changed by">{event.changed_by}</Detail>
        <Detail label="Client address">
          {event.client_address && <span className="mono">{event.client_address}</span>}
        </Detail>
        <Detail label="Request id">{event.request_id && <span className="mono">{event.request_id}</span>}</Detail>
        {event.user_agent && (
          <div className="detail-item detail-item-wide">
            <dt>User agent</dt>
            <dd className="mono">{event.user_agent}</dd>
          </div>
        )}
      </dl>
      {changes.length > 0 && (
        <section>
          <h3 className="section-title">Changes</h3>
          {beforeFromHistory && earlier.isLoading ? (
            <Loading label="Reading what the key held before…" />
          ) : (
            <>
              {beforeFromHistory && earlier.isError && (
                <ErrorMessage
                  error={earlier.error}
                  title="Could not read what the key held before"
                  onRetry={() => void earlier.refetch()}
                  retrying={earlier.isFetching}
                />
              )}
              <ChangesTable changes={changes} />
              {beforeFromHistory && (
                <p className="muted">
                  A key&apos;s update records its new values; the values before are read from the key&apos;s earlier
                  events.
                </p>
              )}
            </>
          )}
        </section>
      )}
      {details.length > 0 && (
        <section>
          <h3 className="section-title">{changes.length > 0 ? 'Also recorded' : 'Details'}</h3>
          <DetailsTable details={details} />
        </section>
      )}
      {changes.length === 0 && details.length === 0 && <p className="muted">This event records no details.</p>}
    </Drawer>
  );
}
