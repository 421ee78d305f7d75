import { useState } from 'react';
import type { BranchSummary } from '../../../../shared/store-api.js';
import { useBranches } from '../../api/store-queries.js';
import { href, Link, navigate } from '../../app/router.js';
import { Badge } from '../../components/badge.js';
import { Button } from '../../components/button.js';
import { DataTable, type Column } from '../../components/data-table.js';
import { EmptyState } from '../../components/feedback.js';
import { BranchIcon, PlusIcon, RestoreIcon } from '../../components/icons.js';
import { PageBody, PageHeader } from '../../components/page.js';
import { QueryView } from '../../components/query-view.js';
import { BranchDialog } from './actions/branch-dialog.js';
import { RestoreDialog } from './actions/restore-dialog.js';
import { useScope } from './use-scope.js';

/** The branches of a namespace with base and head revisions; create one, or restore from one. */
export function BranchesScreen() {
  const scope = useScope();
  const branches = useBranches(scope);
  const [creating, setCreating] = useState(false);
  const [restoreFrom, setRestoreFrom] = useState<string>();
  const history = (name: string): string => href('store/history', { ns: scope.namespace, branch: name });

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
      cell: (branch) =>
        !branch.current && (
          <Button size="sm" variant="ghost" icon={<RestoreIcon />} onClick={() => setRestoreFrom(branch.name)}>
            Restore into {scope.branch}
          </Button>
        ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Branches"
        subtitle={`Namespace ${scope.namespace}. Base is the revision a branch was created from; head, its latest.`}
        actions={
          <Button variant="primary" icon={<PlusIcon />} onClick={() => setCreating(true)} data-testid="new-branch">
            New branch
          </Button>
        }
      />
      <PageBody>
        <QueryView
          query={branches}
          errorTitle="Could not load the branches"
          empty={(data) =>
            data.branches.length === 0 && (
              <EmptyState icon={<BranchIcon size={28} />} title={`No branches in ${scope.namespace} yet`}>
                A branch appears when documents are first applied to it, or when you create one from a revision or
                checkpoint.
              </EmptyState>
            )
          }
        >
          {(data) => (
            <DataTable
              label="Branches"
              testId="branches-table"
              autoFocus
              rows={data.branches}
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
    </>
  );
}
