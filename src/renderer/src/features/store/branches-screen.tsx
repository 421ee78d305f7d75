import { useRef, useState } from 'react';
import type { BranchDeleteResponse, BranchRenameResponse, BranchSummary } from '../../../../shared/store-api.js';
import { useBranches } from '../../api/store-queries.js';
import { href, Link, navigate } from '../../app/router.js';
import { Badge } from '../../components/badge.js';
import { Button } from '../../components/button.js';
import { DataTable, type Column } from '../../components/data-table.js';
import { EmptyState } from '../../components/feedback.js';
import { BranchIcon, PencilIcon, PlusIcon, RestoreIcon, TrashIcon } from '../../components/icons.js';
import { PageBody, PageHeader } from '../../components/page.js';
import { QueryView } from '../../components/query-view.js';
import { showToast } from '../../components/toast.js';
import { plural } from '../../lib/format.js';
import { useActionAccess } from './action-access.js';
import { BranchDialog } from './actions/branch-dialog.js';
import { DeleteBranchDialog } from './actions/delete-branch-dialog.js';
import { MergeDialog } from './actions/merge-dialog.js';
import { RenameBranchDialog } from './actions/rename-branch-dialog.js';
import { RestoreDialog } from './actions/restore-dialog.js';
import { scopeAfterDelete } from './actions/scope-after-delete.js';
import { useDeletedRows } from './use-deleted-rows.js';
import { useScope } from './use-scope.js';

/** The branch a request naming none means: the store does not rename it. */
const DEFAULT_BRANCH = 'main';
const DEFAULT_BRANCH_KEPT =
  'main is the branch every request that names no branch means, so it is not renamed: create a branch from it instead';

/** The branches of a namespace with base and head revisions; create one, merge or restore from one, or delete one. */
export function BranchesScreen() {
  const scope = useScope();
  const branches = useBranches(scope);
  const actions = useActionAccess(scope.namespace);
  const listed = useDeletedRows(branches.data?.branches, (branch) => branch.name);
  const [creating, setCreating] = useState(false);
  const [restoreFrom, setRestoreFrom] = useState<string>();
  const [mergeFrom, setMergeFrom] = useState<string>();
  const [deleting, setDeleting] = useState<string>();
  const [renaming, setRenaming] = useState<string>();
  const newBranch = useRef<HTMLButtonElement>(null);
  // Set when a deletion left the namespace without branches: the table is gone for good then.
  const emptied = useRef(false);
  const history = (name: string): string => href('store/history', { ns: scope.namespace, branch: name });
  const deleted = (result: BranchDeleteResponse): void => {
    const before = branches.data?.branches.map((branch) => branch.name) ?? [];
    listed.hide(result.name);
    setDeleting(undefined);
    showToast(`Deleted branch “${result.name}” and its ${plural(result.pruned, 'revision')}`);
    emptied.current = before.every((name) => name === result.name);
    const next = scopeAfterDelete(scope.namespace, before, result.name, scope.branch);
    // Replaced, not pushed: Back would return to a branch that no longer exists.
    if (next) navigate(href('store/branches', { ns: next.namespace, branch: next.branch }), { replace: true });
  };

  const renamed = (result: BranchRenameResponse): void => {
    setRenaming(undefined);
    showToast(`Renamed branch “${result.previous_name}” to “${result.name}”`);
    // The screen looked at the branch under its old name: it follows it (Back would find no branch).
    if (scope.branch === result.previous_name)
      navigate(href('store/branches', { ns: scope.namespace, branch: result.name }), { replace: true });
  };

  const columns: Column<BranchSummary>[] = [
    {
      header: 'Branch',
      cell: (branch) => (
        <span className="cell-title">
          <BranchIcon size={14} className="muted" />
          <Link to={history(branch.name)} className="mono">
            {branch.name}
          </Link>
          {branch.current && <Badge tone="accent">current</Badge>}
        </span>
      ),
    },
    {
      header: 'Base',
      align: 'right',
      cell: (branch) => <span className="mono muted">{branch.base_revision ? `#${branch.base_revision}` : '—'}</span>,
    },
    { header: 'Head', align: 'right', cell: (branch) => <span className="mono">#{branch.head_revision}</span> },
    {
      header: '',
      align: 'right',
      className: 'cell-actions',
      cell: (branch) => (
        <span className="row-actions">
          {!branch.current && (
            <Button
              size="sm"
              variant="ghost"
              icon={<BranchIcon />}
              aria-label={`Merge into ${scope.branch} from ${branch.name}`}
              onClick={() => setMergeFrom(branch.name)}
              {...actions.guard('write')}
            >
              Merge into {scope.branch}…
            </Button>
          )}
          {!branch.current && (
            <Button
              size="sm"
              variant="ghost"
              icon={<RestoreIcon />}
              aria-label={`Restore into ${scope.branch} from ${branch.name}`}
              onClick={() => setRestoreFrom(branch.name)}
              {...actions.guard('write')}
            >
              Restore into {scope.branch}
            </Button>
          )}
          <Button
            size="sm"
            variant="ghost"
            icon={<PencilIcon />}
            aria-label={`Rename branch ${branch.name}`}
            onClick={() => setRenaming(branch.name)}
            {...(branch.name === DEFAULT_BRANCH
              ? { disabled: true, title: DEFAULT_BRANCH_KEPT }
              : actions.guard('admin', { title: `Rename branch ${branch.name}` }))}
          />
          <Button
            size="sm"
            variant="ghost"
            className="btn-ghost-danger"
            icon={<TrashIcon />}
            aria-label={`Delete branch ${branch.name}`}
            onClick={() => setDeleting(branch.name)}
            {...actions.guard('admin', { title: `Delete branch ${branch.name}` })}
          />
        </span>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Branches"
        subtitle={`Namespace ${scope.namespace}. Base is the revision a branch was created from; head, its latest.`}
        actions={
          <Button
            ref={newBranch}
            variant="primary"
            icon={<PlusIcon />}
            onClick={() => setCreating(true)}
            data-testid="new-branch"
            {...actions.guard('write')}
          >
            New branch
          </Button>
        }
      />
      <PageBody>
        {actions.note(['write', 'admin'])}
        <QueryView
          query={branches}
          errorTitle="Could not load the branches"
          empty={() =>
            listed.shown?.length === 0 &&
            (emptied.current ? (
              // Not "yet": the namespace had history, and deleting its last branch removed it.
              <EmptyState icon={<BranchIcon size={28} />} title={`${scope.namespace} has no branches now`}>
                Its last branch was deleted, and the namespace with it. Writing documents to a branch starts it again.
              </EmptyState>
            ) : (
              <EmptyState icon={<BranchIcon size={28} />} title={`No branches in ${scope.namespace} yet`}>
                A branch appears when documents are first applied to it, or when you create one from a revision or
                checkpoint.
              </EmptyState>
            ))
          }
        >
          {() => (
            <DataTable
              label="Branches"
              testId="branches-table"
              autoFocus
              rows={listed.shown ?? []}
              columns={columns}
              rowKey={(branch) => branch.name}
              onOpen={(branch) => navigate(history(branch.name))}
            />
          )}
        </QueryView>
      </PageBody>
      {creating && <BranchDialog scope={scope} from={{}} onClose={() => setCreating(false)} />}
      {restoreFrom && (
        <RestoreDialog
          scope={scope}
          initial={{ kind: 'branch', branch: restoreFrom }}
          onClose={() => setRestoreFrom(undefined)}
        />
      )}
      {mergeFrom && <MergeDialog scope={scope} from={mergeFrom} onClose={() => setMergeFrom(undefined)} />}
      {renaming && (
        <RenameBranchDialog scope={scope} name={renaming} onRenamed={renamed} onClose={() => setRenaming(undefined)} />
      )}
      {deleting && (
        <DeleteBranchDialog
          scope={scope}
          name={deleting}
          onDeleted={deleted}
          onClose={() => setDeleting(undefined)}
          // With its row gone the table takes focus, also when it is listed again for a new scope (its
          // own autofocus); with the last branch gone there is no table, so the screen's first action.
          returnFocus={() => (emptied.current ? newBranch.current : undefined)}
        />
      )}
    </>
  );
}
