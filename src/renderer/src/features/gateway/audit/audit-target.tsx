import type { AuditEvent } from '../../../../../shared/gateway-api.js';
import { href, Link } from '../../../app/router.js';

/**
 * The screen showing an event's target, where there is one: a key opens Keys filtered to it (revoked
 * keys listed too, since the event may be the revocation), a collection opens itself; users and teams
 * have no screen of their own, so they open Users & teams.
 */
export function targetHref(event: AuditEvent): string | undefined {
  const target = event.target;
  if (target === null) return undefined;
  const family = event.action.slice(0, event.action.indexOf('.'));
  switch (family) {
    case 'api_key':
      return href('gateway/keys', { q: target, revoked: '1' });
    case 'user':
    case 'team':
      return href('gateway/people');
    case 'rag':
      return event.action.startsWith('rag.collection.') && event.action !== 'rag.collection.delete'
        ? href('gateway/collections', { collection: target })
        : href('gateway/collections');
    default:
      return undefined;
  }
}

/** An event's target, as a link to its screen where it has one; a long id is cut short (the whole of it is the title). */
export function AuditTarget({ event }: { readonly event: AuditEvent }) {
  if (event.target === null) return <span className="muted">—</span>;
  const to = targetHref(event);
  return to ? (
    <Link to={to} className="mono truncate audit-target" title={`Open ${event.target}`}>
      {event.target}
    </Link>
  ) : (
    <span className="mono truncate audit-target" title={event.target}>
      {event.target}
    </span>
  );
}
