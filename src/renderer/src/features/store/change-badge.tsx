import type { Change } from '../../../../shared/store-api.js';
import { Badge, type Tone } from '../../components/badge.js';

const LABEL: Record<Change['type'], string> = { create: 'Created', update: 'Modified', delete: 'Deleted' };
const SHORT: Record<Change['type'], string> = { create: 'A', update: 'M', delete: 'D' };
const TONE: Record<Change['type'], Tone> = { create: 'success', update: 'warning', delete: 'danger' };

/**
 * What assistive technology names a changed document's row: first the document's name as the row
 * shows it (`name`: its hidden characters spelled out), so voice control reaches it by what is on
 * screen, then the change its A / M / D marker stands for.
 */
export const changedDocumentLabel = (type: Change['type'], name: string): string =>
  `${name}, ${LABEL[type].toLowerCase()}`;

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
