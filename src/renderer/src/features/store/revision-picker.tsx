import { useEffect, useRef } from 'react';
import type { Checkpoint } from '../../../../shared/store-api.js';
import type { RevisionSelector, StoreScope } from '../../api/query-keys.js';
import { useCheckpoints } from '../../api/store-queries.js';
import { Select, TextInput } from '../../components/field.js';
import { assertNever } from '../../../../shared/assert-never.js';
import { revisionIdOf, sourceSyntaxProblem, type RestoreSource } from './actions/source.js';

/**
 * What to look at on a branch: its head, a checkpoint, or a revision id kept as the user typed it, so
 * a value that is not one can be shown back with what is wrong rather than rewritten.
 */
export type PickedRevision = { readonly kind: 'head' } | Extract<RestoreSource, { kind: 'revision' | 'checkpoint' }>;

/** What is wrong with a picked revision id as typed (undefined: nothing, or nothing typed yet). */
export function pickedProblem(picked: PickedRevision): ReturnType<typeof sourceSyntaxProblem> {
  return picked.kind === 'revision' ? sourceSyntaxProblem(picked) : undefined;
}

/** The selector to read a picked revision with; undefined while a revision id is empty or not one. */
export function selectorOf(picked: PickedRevision): RevisionSelector | undefined {
  switch (picked.kind) {
    case 'head':
      return {};
    case 'checkpoint':
      return { checkpoint: picked.checkpoint };
    case 'revision': {
      const revision = revisionIdOf(picked.revision);
      return revision === undefined ? undefined : { revision };
    }
    default:
      return assertNever(picked);
  }
}

/** A checkpoint as an option: its revision, and its branch when that is not the one on screen. */
function checkpointLabel(checkpoint: Checkpoint, branch: string): string {
  if (checkpoint.branch === branch) return `${checkpoint.name} (#${checkpoint.revision_id})`;
  return `${checkpoint.name} (#${checkpoint.revision_id}${checkpoint.branch ? ` on ${checkpoint.branch}` : ''})`;
}

/**
 * Picks what to look at on a branch: the head, a revision id, or any checkpoint of the namespace
 * (those of other branches listed apart, with their branch). A checkpoint the address names that
 * the list lacks stays chosen, marked "not found", rather than showing as the head.
 */
export function RevisionPicker({
  scope,
  value,
  onChange,
  headRevision,
}: {
  readonly scope: StoreScope;
  readonly value: PickedRevision;
  readonly onChange: (value: PickedRevision) => void;
  readonly headRevision?: number;
}) {
  const checkpoints = useCheckpoints(scope.namespace);
  // "Revision…" chosen in the picker: its id box comes next, so focus goes there (not when the
  // address opens a revision, which must not pull focus from where the user is).
  const idBox = useRef<HTMLInputElement>(null);
  const focusIdBox = useRef(false);
  useEffect(() => {
    if (value.kind !== 'revision' || !focusIdBox.current) return;
    focusIdBox.current = false;
    idBox.current?.focus();
    idBox.current?.select();
  }, [value.kind]);
  const listed = checkpoints.data?.checkpoints;
  const onBranch = listed?.filter((checkpoint) => checkpoint.branch === scope.branch) ?? [];
  const elsewhere = listed?.filter((checkpoint) => checkpoint.branch !== scope.branch) ?? [];
  const unlisted =
    value.kind === 'checkpoint' && !listed?.some((checkpoint) => checkpoint.name === value.checkpoint)
      ? value.checkpoint
      : undefined;
  const notFound = unlisted !== undefined && listed !== undefined;
  const choice = value.kind === 'checkpoint' ? `cp:${value.checkpoint}` : value.kind;
  const group = (label: string, entries: readonly Checkpoint[]) =>
    entries.length > 0 && (
      <optgroup label={label}>
        {entries.map((checkpoint) => (
          <option key={checkpoint.name} value={`cp:${checkpoint.name}`}>
            {checkpointLabel(checkpoint, scope.branch)}
          </option>
        ))}
      </optgroup>
    );
  return (
    <div className="revision-picker">
      <Select
        aria-label="Revision"
        data-testid="revision-picker"
        value={choice}
        aria-invalid={notFound ? true : undefined}
        onChange={(event) => {
          const next = event.target.value;
          if (next === 'head') onChange({ kind: 'head' });
          else if (next === 'revision') {
            focusIdBox.current = true;
            onChange({ kind: 'revision', revision: headRevision ? String(headRevision) : '' });
          } else onChange({ kind: 'checkpoint', checkpoint: next.slice(3) });
        }}
      >
        <option value="head">Head{headRevision ? ` (#${headRevision})` : ''}</option>
        <option value="revision">Revision…</option>
        {unlisted !== undefined && (
          <option value={`cp:${unlisted}`}>{`${unlisted}${notFound ? ' (not found)' : ''}`}</option>
        )}
        {group(`Checkpoints on ${scope.branch}`, onBranch)}
        {group('Checkpoints on other branches', elsewhere)}
      </Select>
      {value.kind === 'revision' && (
        <TextInput
          ref={idBox}
          aria-label="Revision id"
          className="revision-picker-id"
          inputMode="numeric"
          placeholder="e.g. 12"
          value={value.revision}
          aria-invalid={pickedProblem(value) ? true : undefined}
          onChange={(event) => onChange({ kind: 'revision', revision: event.target.value })}
        />
      )}
    </div>
  );
}
