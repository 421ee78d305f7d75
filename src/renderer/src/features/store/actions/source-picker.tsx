import { useEffect, useRef } from 'react';
import type { StoreScope } from '../../../api/query-keys.js';
import { useBranches, useCheckpoints } from '../../../api/store-queries.js';
import { Field, Select, TextInput } from '../../../components/field.js';
import { Segmented } from '../../../components/segmented.js';
import { assertNever } from '../../../../../shared/assert-never.js';
import { sourceSyntaxProblem, type RestoreSource } from './source.js';

const KINDS = [
  { value: 'branch', label: 'Branch' },
  { value: 'revision', label: 'Revision' },
  { value: 'checkpoint', label: 'Checkpoint' },
] as const;

/** A name the address asked for that the loaded list lacks: shown as chosen rather than as the first entry. */
function unlisted(name: string, listed: readonly { readonly name: string }[] | undefined): boolean {
  return name !== '' && listed !== undefined && !listed.some((entry) => entry.name === name);
}

/**
 * The select's first option when it has no chosen entry to show: the list loading, its failure, it
 * being empty, or nothing picked yet. A select shows its first option when its value matches none, so
 * without this the first entry would look chosen while nothing is (and, being shown, could not be picked).
 */
function LeadOption({
  value,
  list,
  what,
  whats,
  none,
}: {
  readonly value: string;
  readonly list: { readonly isPending: boolean; readonly isError: boolean; readonly length: number };
  /** One entry, lower case ("checkpoint"); `whats` for more. */
  readonly what: string;
  readonly whats: string;
  /** What an empty list is called ("No checkpoints"). */
  readonly none: string;
}) {
  if (list.isPending) return <option value={value}>Loading {whats}…</option>;
  if (list.isError) return <option value={value}>Could not list the {whats}</option>;
  if (list.length === 0) return <option value="">{none}</option>;
  if (value === '')
    return (
      <option value="" disabled>
        Pick a {what}
      </option>
    );
  return null;
}

/** The input naming one source: a branch select, a revision id or a checkpoint select. */
function SourceInput({
  scope,
  source,
  onChange,
  id,
  excludeCurrent,
  side,
}: {
  readonly scope: StoreScope;
  readonly source: RestoreSource;
  readonly onChange: (source: RestoreSource) => void;
  readonly id: string;
  readonly excludeCurrent: boolean;
  /** Which side of a pair the input is for ("From"), named in its label; none in a dialog's lone picker. */
  readonly side?: string;
}) {
  const name = (what: string): string => (side ? `${side}: ${what.toLowerCase()}` : what);
  const branches = useBranches(scope);
  const checkpoints = useCheckpoints(scope.namespace);
  const others = branches.data?.branches.filter((branch) => !excludeCurrent || branch.name !== scope.branch) ?? [];
  switch (source.kind) {
    case 'branch':
      return (
        <Select
          id={id}
          aria-label={name('Branch')}
          value={source.branch}
          onChange={(event) => onChange({ kind: 'branch', branch: event.target.value })}
        >
          <LeadOption
            value={source.branch}
            list={{ isPending: branches.isPending, isError: branches.isError, length: others.length }}
            what="branch"
            whats="branches"
            none={excludeCurrent ? 'No other branches' : 'No branches'}
          />
          {unlisted(source.branch, branches.data && others) && (
            <option value={source.branch}>{source.branch} (not found)</option>
          )}
          {others.map((branch) => (
            <option key={branch.name} value={branch.name}>
              {branch.name} (head #{branch.head_revision})
            </option>
          ))}
        </Select>
      );
    case 'revision':
      return (
        <TextInput
          id={id}
          aria-label={name('Revision id')}
          inputMode="numeric"
          placeholder="Revision id, e.g. 12"
          value={source.revision}
          aria-invalid={sourceSyntaxProblem(source) ? true : undefined}
          onChange={(event) => onChange({ kind: 'revision', revision: event.target.value })}
        />
      );
    case 'checkpoint':
      return (
        <Select
          id={id}
          aria-label={name('Checkpoint')}
          value={source.checkpoint}
          onChange={(event) => onChange({ kind: 'checkpoint', checkpoint: event.target.value })}
        >
          <LeadOption
            value={source.checkpoint}
            list={{
              isPending: checkpoints.isPending,
              isError: checkpoints.isError,
              length: checkpoints.data?.checkpoints.length ?? 0,
            }}
            what="checkpoint"
            whats="checkpoints"
            none="No checkpoints"
          />
          {unlisted(source.checkpoint, checkpoints.data?.checkpoints) && (
            <option value={source.checkpoint}>{source.checkpoint} (not found)</option>
          )}
          {checkpoints.data?.checkpoints.map((checkpoint) => (
            <option key={checkpoint.name} value={checkpoint.name}>
              {checkpoint.name} (#{checkpoint.revision_id} on {checkpoint.branch})
            </option>
          ))}
        </Select>
      );
    default:
      return assertNever(source);
  }
}

/**
 * Picks a source (branch head, revision or checkpoint of the namespace). `form` lays it out with
 * field labels (dialogs); `inline` as one compact row (toolbars).
 */
export function SourcePicker({
  scope,
  source,
  onChange,
  label = 'Restore from',
  excludeCurrent = true,
  idPrefix = 'source',
  layout = 'form',
}: {
  readonly scope: StoreScope;
  readonly source: RestoreSource;
  readonly onChange: (source: RestoreSource) => void;
  readonly label?: string;
  readonly excludeCurrent?: boolean;
  readonly idPrefix?: string;
  readonly layout?: 'form' | 'inline';
}) {
  const branches = useBranches(scope);
  const checkpoints = useCheckpoints(scope.namespace);
  const firstBranch =
    branches.data?.branches.find((branch) => !excludeCurrent || branch.name !== scope.branch)?.name ?? '';
  const firstCheckpoint = checkpoints.data?.checkpoints[0]?.name ?? '';
  // A kind chosen while its list is still loading gets the list's first entry once it arrives, as it
  // would have had the list been there: otherwise the select sits on "Pick a branch" for no reason.
  const pickFirstOnLoad = useRef<'branch' | 'checkpoint' | undefined>(undefined);
  useEffect(() => {
    const awaited = pickFirstOnLoad.current;
    if (awaited === undefined) return;
    if (source.kind !== awaited) pickFirstOnLoad.current = undefined;
    else if (source.kind === 'branch' && source.branch === '' && branches.data) {
      pickFirstOnLoad.current = undefined;
      if (firstBranch !== '') onChange({ kind: 'branch', branch: firstBranch });
    } else if (source.kind === 'checkpoint' && source.checkpoint === '' && checkpoints.data) {
      pickFirstOnLoad.current = undefined;
      if (firstCheckpoint !== '') onChange({ kind: 'checkpoint', checkpoint: firstCheckpoint });
    }
  }, [source, branches.data, checkpoints.data, firstBranch, firstCheckpoint, onChange]);
  const kinds = (
    <Segmented
      label={`${label}: kind`}
      options={KINDS}
      value={source.kind}
      onChange={(kind) => {
        pickFirstOnLoad.current =
          (kind === 'branch' && !branches.data) || (kind === 'checkpoint' && !checkpoints.data) ? kind : undefined;
        onChange(
          kind === 'branch'
            ? { kind, branch: firstBranch }
            : kind === 'revision'
              ? { kind, revision: '' }
              : { kind, checkpoint: firstCheckpoint },
        );
      }}
    />
  );
  const input = (
    <SourceInput
      scope={scope}
      source={source}
      onChange={onChange}
      id={`${idPrefix}-${source.kind}`}
      excludeCurrent={excludeCurrent}
      side={layout === 'inline' ? label : undefined}
    />
  );
  if (layout === 'inline') {
    return (
      <div className="source-inline" data-testid={`${idPrefix}-source`}>
        <span className="source-inline-label">{label}</span>
        {kinds}
        {input}
      </div>
    );
  }
  return (
    <div className="form-row">
      <Field label={label}>{kinds}</Field>
      <Field label={KINDS.find((kind) => kind.value === source.kind)!.label} htmlFor={`${idPrefix}-${source.kind}`}>
        {input}
      </Field>
    </div>
  );
}
