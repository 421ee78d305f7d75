import type { Change } from '../../../../shared/store-api.js';
import { Badge, type Tone } from '../../components/badge.js';

const LABEL: Record<Change['type'], string> = { create: 'Created', update: 'Modified', delete: 'Deleted' };
const SHORT: Record<Change['type'], string> = { create: 'A', update: 'M', delete: 'D' };
const TONE: Record<Change['type'], Tone> = { create: 'success', update: 'warning', delete: 'danger' };

/** "Created" / "Modified" / "Deleted", as the badge and the marker name a change. */
export const changeLabel = (type: Change['type']): string => LABEL[type];

/** "Created" / "Modified" / "Deleted". */
export function ChangeBadge({ type }: { readonly type: Change['type'] }) {
  return <Badge tone={TONE[type]}>{LABEL[type]}</Badge>;
}

/** A one-letter A / M / D marker for dense lists. */
export function ChangeMark({ type }: { readonly type: Change['type'] }) {
  return (
    <span className={`change-mark change-mark-${type}`} title={LABEL[type]} aria-label={LABEL[type]}>
      {SHORT[type]}
    </span>
  );
}
