import { useState } from 'react';
import type { Checkpoint } from '../../../../shared/store-api.js';
import { useCheckpoints } from '../../api/store-queries.js';
import { href, Link, navigate } from '../../app/router.js';
import { Button } from '../../components/button.js';
import { DataTable, type Column } from '../../components/data-table.js';
import { VisibleName } from '../../components/diff/visible-text.js';
import { EmptyState } from '../../components/feedback.js';
import { PlusIcon, RestoreIcon, TagIcon, TrashIcon, UndoIcon } from '../../components/icons.js';
import { PageBody, PageHeader } from '../../components/page.js';
import { QueryView } from '../../components/query-view.js';
import { fullTime, timeAgo } from '../../lib/format.js';
import { nameText } from '../../lib/invisible-chars.js';
import { useActionAccess } from './action-access.js';
import { CreateCheckpointDialog, DeleteCheckpointDialog } from './actions/checkpoint-dialogs.js';
import { RestoreDialog } from './actions/restore-dialog.js';
import { RollbackDialog } from './actions/rollback-dialog.js';
import { useDeletedRows } from './use-deleted-rows.js';
import { useScope } from './use-scope.js';

type Action =
  | { readonly kind: 'create' }
  | { readonly kind: 'delete' | 'rollback' | 'restore'; readonly checkpoint: Checkpoint }
  | undefined;

/** Named revisions of the namespace: create, delete, browse, and roll back or restore to one. */
export function CheckpointsScreen() {
  const scope = useScope();
  const checkpoints = useCheckpoints(scope.namespace);
  const actions = useActionAccess(scope.namespace);
  const listed = useDeletedRows(checkpoints.data?.checkpoints, (checkpoint) => checkpoint.name);
  const [action, setAction] = useState<Action>();
  const documentsAt = (checkpoint: Checkpoint): string =>
    href('store/documents', { ns: scope.namespace, branch: checkpoint.branch, checkpoint: checkpoint.name });

  const columns: Column<Checkpoint>[] = [
    {
      header: 'Checkpoint',
      cell: (checkpoint) => (
        <span className="cell-title">
          <TagIcon size={14} className="muted" />
          <Link to={documentsAt(checkpoint)} aria-label={nameText(checkpoint.name)}>
            <VisibleName text={checkpoint.name} />
          </Link>
        </span>
      ),
    },
    { header: 'Revision', cell: (checkpoint) => <span className="mono">#{checkpoint.revision_id}</span> },
    { header: 'Branch', cell: (checkpoint) => <span className="mono muted">{checkpoint.branch}</span> },
    {
      header: 'Description',
      className: 'cell-wide',
      cell: (checkpoint) => <span className="muted">{checkpoint.description}</span>,
    },
    {
      header: 'Created',
      // "2 minutes ago" on one line: the description beside it gives up width instead.
      className: 'cell-nowrap',
      cell: (checkpoint) => <time title={fullTime(checkpoint.created_at)}>{timeAgo(checkpoint.created_at)}</time>,
    },
    {
      header: '',
      align: 'right',
      className: 'cell-actions',
      cell: (checkpoint) => (
        <span className="row-actions">
          {checkpoint.branch === scope.branch ? (
            <Button
              size="sm"
              variant="ghost"
              icon={<UndoIcon />}
              aria-label={`Roll back to ${nameText(checkpoint.name)}`}
              onClick={() => setAction({ kind: 'rollback', checkpoint })}
              {...actions.guard('write')}
            >
              Roll back
            </Button>
          ) : (
            <Button
              size="sm"
              variant="ghost"
              icon={<RestoreIcon />}
              aria-label={`Restore into ${scope.branch} from ${nameText(checkpoint.name)}`}
              onClick={() => setAction({ kind: 'restore', checkpoint })}
              {...actions.guard('write')}
            >
              Restore into {scope.branch}
            </Button>
          )}
          <Button
            size="sm"
            variant="ghost"
            icon={<TrashIcon />}
            aria-label={`Delete ${nameText(checkpoint.name)}`}
            onClick={() => setAction({ kind: 'delete', checkpoint })}
            {...actions.guard('write')}
          />
        </span>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Checkpoints"
        subtitle={`Named revisions in ${scope.namespace}, kept safe from garbage collection.`}
        actions={
          <Button
            variant="primary"
            icon={<PlusIcon />}
            onClick={() => setAction({ kind: 'create' })}
            data-testid="new-checkpoint"
            {...actions.guard('write')}
          >
            New checkpoint
          </Button>
        }
      />
      <PageBody>
        {actions.note(['write'])}
        <QueryView
          query={checkpoints}
          errorTitle="Could not load the checkpoints"
          empty={() =>
            listed.shown?.length === 0 && (
              <EmptyState
                icon={<TagIcon size={28} />}
                title="No checkpoints yet"
                action={
                  <Button icon={<PlusIcon />} onClick={() => setAction({ kind: 'create' })} {...actions.guard('write')}>
                    Mark the head of {scope.branch}
                  </Button>
                }
              >
                A checkpoint names a revision (a release, a known-good configuration) so you can browse it, compare with
                it and roll back to it later.
              </EmptyState>
            )
          }
        >
          {() => (
            <DataTable
              label="Checkpoints"
              testId="checkpoints-table"
              autoFocus
              rows={listed.shown ?? []}
              columns={columns}
              rowKey={(checkpoint) => checkpoint.name}
              onOpen={(checkpoint) => navigate(documentsAt(checkpoint))}
            />
          )}
        </QueryView>
      </PageBody>
      {action?.kind === 'create' && <CreateCheckpointDialog scope={scope} onClose={() => setAction(undefined)} />}
      {action?.kind === 'delete' && (
        <DeleteCheckpointDialog
          namespace={scope.namespace}
          checkpoint={action.checkpoint}
          onDeleted={() => {
            listed.hide(action.checkpoint.name);
            setAction(undefined);
          }}
          onClose={() => setAction(undefined)}
        />
      )}
      {action?.kind === 'rollback' && (
        <RollbackDialog
          scope={scope}
          target={{ checkpoint: action.checkpoint.name }}
          onClose={() => setAction(undefined)}
        />
      )}
      {action?.kind === 'restore' && (
        <RestoreDialog
          scope={scope}
          initial={{ kind: 'checkpoint', checkpoint: action.checkpoint.name }}
          onClose={() => setAction(undefined)}
        />
      )}
    </>
  );
}
