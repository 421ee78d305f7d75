import { useMemo, useState } from 'react';
import type { RevisionSelector, StoreScope } from '../../../api/query-keys.js';
import { useBranches, useStoreState } from '../../../api/store-queries.js';
import { useCreateBranch } from '../../../api/store-mutations.js';
import { href, navigate } from '../../../app/router.js';
import { FormDialog } from '../../../components/dialog.js';
import { Field, TextInput } from '../../../components/field.js';
import { showToast } from '../../../components/toast.js';
import { plural } from '../../../lib/format.js';
import { diffStates } from '../../../lib/state-diff.js';
import { branchNameProblem } from './branch-name.js';
import { DiffPreview } from './diff-preview.js';
import { describeTarget } from './rollback-dialog.js';

/** Creates a branch from the head, a revision or a checkpoint, previewing the documents it starts with. */
export function BranchDialog({
  scope,
  from,
  onClose,
  returnFocus,
}: {
  readonly scope: StoreScope;
  readonly from: RevisionSelector;
  readonly onClose: () => void;
  /** Where focus goes on close when the dialog's opener is gone by then. */
  readonly returnFocus?: () => HTMLElement | null;
}) {
  const source = useStoreState(scope, from);
  const create = useCreateBranch();
  const [name, setName] = useState('');
  const changes = useMemo(() => (source.data ? diffStates({}, source.data.objects) : undefined), [source.data]);
  const branches = useBranches(scope);
  // Checked as typed against the branches listed; one created meanwhile is the store's 409, after which
  // the list is refreshed and this says so too.
  const problem = branchNameProblem(name, scope.namespace, branches.data?.branches);
  const sourceLabel = from.revision || from.checkpoint ? describeTarget(from) : `the head of ${scope.branch}`;
  // The preview comes first, and the name is checked against the listed branches: a submit made
  // before they are read waits for them rather than being dropped.
  const waiting = source.isPending
    ? 'Creating the branch once its documents are read…'
    : branches.isPending
      ? `Creating the branch once the branches of ${scope.namespace} are read…`
      : undefined;
  const canSubmit = name !== '' && !problem && (waiting !== undefined || !!source.data);
  // The branch does not exist yet: say what it will be made from and hold, not what "would change".
  const summary =
    source.data &&
    // A name the field refuses is not repeated as if it would be created.
    `${name && !problem ? name : 'The branch'} will be created from ${
      from.revision ? `#${from.revision} of ${scope.branch}` : `${sourceLabel} (#${source.data.revision})`
    } with ${plural(Object.keys(source.data.objects).length, 'document')}`;
  const submit = (): void =>
    create.mutate(
      { scope, name, fromRevision: from.revision, fromCheckpoint: from.checkpoint },
      {
        onSuccess: (result) => {
          onClose();
          showToast(`Created branch ${result.name} from #${result.base_revision}`);
          navigate(href('store/history', { ns: scope.namespace, branch: result.name }));
        },
      },
    );
  return (
    <FormDialog
      wide
      layout="stack"
      testId="branch-dialog"
      title={`New branch from ${sourceLabel}`}
      description={`The branch starts with the documents of ${sourceLabel} in ${scope.namespace}, as its first revision.`}
      onClose={onClose}
      returnFocus={returnFocus}
      onSubmit={submit}
      confirmLabel="Create branch"
      confirmTestId="confirm-branch"
      busy={create.isPending}
      disabled={!canSubmit}
      waiting={waiting}
      after={
        <DiffPreview
          title="Documents on the new branch"
          summary={summary}
          changes={changes}
          error={source.error}
          emptyText="The source has no documents: the branch starts empty."
        />
      }
      request={create}
      errorTitle="Could not create the branch"
    >
      <Field label="Branch name" htmlFor="branch-name" error={problem} hint="For example feature/new-limits.">
        <TextInput
          id="branch-name"
          value={name}
          // The store's refusal was about the name as it was: the dialog forgets it as the name changes.
          onChange={(event) => setName(event.target.value)}
          placeholder="feature/new-limits"
        />
      </Field>
    </FormDialog>
  );
}
