import { useEffect, useState, type RefObject } from 'react';
import { AUDIT_ACTIONS } from '../../../../../shared/gateway-api.js';
import { Button } from '../../../components/button.js';
import { Select, TextInput } from '../../../components/field.js';
import { ACTION_FAMILIES, type AuditAddressFilter } from './audit-filter.js';

/** How long typing in the target field pauses before the list is asked again: one read per word, not per key. */
const TARGET_SETTLE_MS = 300;

/**
 * The Audit screen's filters: an action or family of actions, a target id, and a range of days. Each
 * change goes to the address (see the screen), so a reload or a shared link shows the same events.
 */
export function AuditToolbar({
  filter,
  onFilter,
  filterRef,
}: {
  readonly filter: AuditAddressFilter;
  readonly onFilter: (filter: AuditAddressFilter) => void;
  readonly filterRef: RefObject<HTMLInputElement | null>;
}) {
  // Typed here, sent once typing settles; a change in the address (Back, a link) replaces it.
  const [target, setTarget] = useState(filter.target);
  useEffect(() => setTarget(filter.target), [filter.target]);
  useEffect(() => {
    if (target === filter.target) return;
    const timer = setTimeout(() => onFilter({ ...filter, target }), TARGET_SETTLE_MS);
    return () => clearTimeout(timer);
  }, [target]);
  const knownAction =
    !filter.action ||
    ACTION_FAMILIES.includes(filter.action) ||
    (AUDIT_ACTIONS as readonly string[]).includes(filter.action);
  return (
    <header className="toolbar toolbar-wrap" data-testid="audit-toolbar">
      <Select
        aria-label="Action"
        value={filter.action}
        onChange={(event) => onFilter({ ...filter, action: event.target.value })}
      >
        <option value="">All actions</option>
        {/* One in the address that is none of these stays shown: the error under it names the known ones. */}
        {!knownAction && <option value={filter.action}>{filter.action}</option>}
        <optgroup label="Families">
          {ACTION_FAMILIES.map((family) => (
            <option key={family} value={family}>
              {family}
            </option>
          ))}
        </optgroup>
        <optgroup label="Actions">
          {AUDIT_ACTIONS.map((action) => (
            <option key={action} value={action}>
              {action}
            </option>
          ))}
        </optgroup>
      </Select>
      <TextInput
        ref={filterRef}
        className="filter-input"
        placeholder="Target: key, user or team id  /"
        aria-label="Target"
        title="Everything done to one key, user, team or collection, by its id"
        value={target}
        onChange={(event) => setTarget(event.target.value)}
        onKeyDown={(event) => {
          // Enter sends it at once rather than after the pause.
          if (event.key === 'Enter' && !event.nativeEvent.isComposing) onFilter({ ...filter, target });
        }}
      />
      <label className="source-inline">
        <span className="muted">From</span>
        <TextInput
          type="date"
          className="filter-input"
          aria-label="From day"
          value={filter.from}
          max={filter.to || undefined}
          onChange={(event) => onFilter({ ...filter, from: event.target.value })}
        />
      </label>
      <label className="source-inline">
        <span className="muted">To</span>
        <TextInput
          type="date"
          className="filter-input"
          aria-label="To day"
          title="This day included"
          value={filter.to}
          min={filter.from || undefined}
          onChange={(event) => onFilter({ ...filter, to: event.target.value })}
        />
      </label>
      {(filter.action || filter.target || filter.from || filter.to) && (
        <Button size="sm" variant="ghost" onClick={() => onFilter({ action: '', target: '', from: '', to: '' })}>
          Clear filters
        </Button>
      )}
    </header>
  );
}
