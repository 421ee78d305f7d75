import type { InvalidateMessage } from '../../../shared/gateway-api.js';
import { currentAdminClient } from '../admin/admin-client.js';
import type { GatewayEventBus } from '../traffic/event-bus.js';
import type { AuditRepository } from './audit.repository.js';
import type { AuditEntry } from './usage-entry.js';

/**
 * Writes an admin action to the audit trail (synchronously: admin actions are rare and must not be
 * lost), with the admin client it came from when an admin request made it, and tells the UI: the audit view, and the resource that changed when there is one.
 */
export function recordAction(
  audit: AuditRepository,
  bus: GatewayEventBus,
  entry: AuditEntry,
  changed?: { readonly topic: InvalidateMessage['topic']; readonly ids?: readonly string[] },
): void {
  audit.insert(entry, currentAdminClient());
  bus.invalidate('audit');
  if (changed !== undefined) bus.invalidate(changed.topic, changed.ids);
}

/** An update that names no field: it changes nothing, so it writes nothing and records no action. */
export const changesNothing = (input: object): boolean => Object.values(input).every((value) => value === undefined);
