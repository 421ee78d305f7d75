import { useMemo, useState } from 'react';
import type { RevisionSelector, StoreScope } from '../../api/query-keys.js';
import { useStoreState } from '../../api/store-queries.js';
import { useRestore } from '../../api/store-mutations.js';
import { FormDialog } from '../../components/dialog.js';
import { Field, TextInput } from '../../components/field.js';
import { nameText } from '../../lib/invisible-chars.js';
import { diffStates, documentContent } from '../../lib/state-diff.js';
import { showNewRevision } from './actions/action-result.js';
import { BranchMovedNotice, isBranchMoved } from './actions/branch-moved.js';
import { DiffPreview } from './actions/diff-preview.js';

/** Where the version being restored was read: a revision or a checkpoint, and the revision it answered. */
export interface DocumentVersion {
  readonly at: RevisionSelector;
  readonly revision: number;
}

/** Names a version for titles and messages: `#5`, `checkpoint “v1” (#5)`. */
export function describeVersion(version: DocumentVersion): string {
  return version.at.checkpoint
    ? `checkpoint “${version.at.checkpoint}” (#${version.revision})`
    : `#${version.revision}`;
}

/**
 * Brings one document of the branch back to its content at an older revision or checkpoint (as
 * `git checkout <rev> -- <path>`), after showing the change from the branch head to that version: an
 * update, or a create when the head no longer has it. The write names only this key and carries the
 * previewed head as `expected_revision`, so a branch that moved meanwhile is refused, not overwritten.
 */
export function DocumentRestoreDialog({
  scope,
  documentKey,
  content,
  version,
  onClose,
}: {
  readonly scope: StoreScope;
  readonly documentKey: string;
  /** The document's content at `version`. */
  readonly content: string;
  readonly version: DocumentVersion;
  readonly onClose: () => void;
}) {
  const head = useStoreState(scope, {});
  const restore = useRestore();
  const [message, setMessage] = useState('');
  const moved = isBranchMoved(restore.error);
  const changes = useMemo(() => {
    if (!head.data) return undefined;
    const atHead = documentContent(head.data.objects, documentKey);
    // Computed keys define own properties, so a key named "__proto__" stays a document.
    return diffStates(atHead === undefined ? {} : { [documentKey]: atHead }, { [documentKey]: content });
  }, [head.data, documentKey, content]);
  const waiting = head.isPending ? 'Restoring once the preview is read…' : undefined;
  const canSubmit = waiting !== undefined || (!!changes && changes.length > 0 && !head.isFetching);
  const name = nameText(documentKey);
  const submit = (): void =>
    restore.mutate(
      {
        scope,
        fromRevision: version.at.checkpoint ? undefined : version.revision,
        fromCheckpoint: version.at.checkpoint,
        keys: [documentKey],
        // Empty: the store writes `restore <key> from <branch>@<revision>`, naming the key as the log shows it.
        message,
        expectedRevision: head.data?.revision,
      },
      {
        onSuccess: (result) => {
          onClose();
          showNewRevision(scope, `Restored ${name} on ${scope.branch} from ${describeVersion(version)}`, result);
        },
      },
    );
  return (
    <FormDialog
      wide
      layout="stack"
      testId="document-restore-dialog"
      title={`Restore ${name} to ${scope.branch}`}
      description={`A new revision on ${scope.branch} gives this document its content at ${describeVersion(version)}. Other documents do not change.`}
      onClose={onClose}
      onSubmit={submit}
      confirmLabel="Restore this document"
      confirmTestId="confirm-document-restore"
      busy={restore.isPending}
      disabled={!canSubmit}
      waiting={waiting}
      after={
        <>
          {moved && <BranchMovedNotice branch={scope.branch} head={head.data?.revision} refreshing={head.isFetching} />}
          <DiffPreview
            title={`From the head of ${scope.branch}${head.data ? ` (#${head.data.revision})` : ''} to ${describeVersion(version)}`}
            changes={changes}
            error={head.error}
            emptyText={`${name} on ${scope.branch} already has this content: nothing to restore.`}
          />
        </>
      }
      // A moved branch is the notice above, not a failure.
      error={moved ? undefined : restore.error}
      errorTitle="Restore failed"
    >
      <Field label="Message" htmlFor="document-restore-message">
        <TextInput
          id="document-restore-message"
          placeholder={`restore ${name} from ${describeVersion(version)}`}
          value={message}
          onChange={(event) => setMessage(event.target.value)}
        />
      </Field>
    </FormDialog>
  );
}
