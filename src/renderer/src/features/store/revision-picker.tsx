import type { RevisionSelector, StoreScope } from '../../api/query-keys.js';
import { useCheckpoints } from '../../api/store-queries.js';
import { Select, TextInput } from '../../components/field.js';

/** Picks what to look at on a branch: the head, a checkpoint, or a revision id. */
export function RevisionPicker({
  scope,
  value,
  onChange,
  headRevision,
}: {
  readonly scope: StoreScope;
  readonly value: RevisionSelector;
  readonly onChange: (value: RevisionSelector) => void;
  readonly headRevision?: number;
}) {
  const checkpoints = useCheckpoints(scope.namespace);
  const onBranch = checkpoints.data?.checkpoints.filter((checkpoint) => checkpoint.branch === scope.branch) ?? [];
  const kind = value.checkpoint ? `cp:${value.checkpoint}` : value.revision ? 'revision' : 'head';
  return (
    <div className="revision-picker">
      <Select
        aria-label="Revision"
        data-testid="revision-picker"
        value={kind}
        onChange={(event) => {
          const next = event.target.value;
          if (next === 'head') onChange({});
          else if (next === 'revision') onChange({ revision: value.revision || headRevision || 1 });
          else onChange({ checkpoint: next.slice(3) });
        }}
      >
        <option value="head">Head{headRevision ? ` (#${headRevision})` : ''}</option>
        <option value="revision">Revision…</option>
        {onBranch.length > 0 && (
          <optgroup label="Checkpoints">
            {onBranch.map((checkpoint) => (
              <option key={checkpoint.name} value={`cp:${checkpoint.name}`}>
                {checkpoint.name} (#{checkpoint.revision_id})
              </option>
            ))}
          </optgroup>
        )}
      </Select>
      {kind === 'revision' && (
        <TextInput
          aria-label="Revision id"
          className="revision-picker-id"
          inputMode="numeric"
          value={value.revision || ''}
          onChange={(event) => onChange({ revision: Number(event.target.value.replace(/\D/g, '')) || 0 })}
        />
      )}
    </div>
  );
}
