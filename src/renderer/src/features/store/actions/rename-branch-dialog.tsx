import { useState } from 'react';
import type { BranchRenameResponse } from '../../../../../shared/store-api.js';
import type { StoreScope } from '../../../api/query-keys.js';
import { useRenameBranch } from '../../../api/store-mutations.js';
import { useBranches } from '../../../api/store-queries.js';
import { FormDialog } from '../../../components/dialog.js';
import { Field, TextInput } from '../../../components/field.js';
import { branchNameProblem } from './branch-name.js';

/**
 * Renames a branch, as `git branch -m`: only the name changes, so its history, the checkpoints into
 * it, its merges and the branches made from it carry over. The new name is checked as typed against
 * the branches listed; one taken meanwhile is the store's 409, shown as it words it.
 */
export function RenameBranchDialog({
  scope,
  name,
  onRenamed,
  onClose,
}: {
  /** The screen's scope: its namespace holds the branch. */
  readonly scope: StoreScope;
  readonly name: string;
  readonly onRenamed: (result: BranchRenameResponse) => void;
  readonly onClose: () => void;
}) {
  const rename = useRenameBranch();
  const branches = useBranches(scope);
  const [newName, setNewName] = useState(name);
  const unchanged = newName === name;
  const problem = unchanged ? undefined : branchNameProblem(newName, scope.namespace, branches.data?.branches);
  const submit = (): void =>
    rename.mutate({ namespace: scope.namespace, name, newName }, { onSuccess: (result) => onRenamed(result) });
  return (
    <FormDialog
      testId="rename-branch-dialog"
      title={`Rename branch “${name}”`}
      description={`Its history, the checkpoints into it and its merges stay as they are, under the new name. Clients that write to “${name}” would start a new branch of that name.`}
      onClose={onClose}
      onSubmit={submit}
      confirmLabel="Rename branch"
      confirmTestId="confirm-rename-branch"
      busy={rename.isPending}
      disabled={unchanged || newName === '' || problem !== undefined}
      request={rename}
      errorTitle={`Could not rename ${name}`}
    >
      <Field label="New name" htmlFor="rename-branch-name" error={problem}>
        <TextInput
          id="rename-branch-name"
          value={newName}
          autoFocus
          onChange={(event) => setNewName(event.target.value)}
          onFocus={(event) => event.target.select()}
        />
      </Field>
    </FormDialog>
  );
}
