import { useState } from 'react';
import type { LogEntry } from '../../../../shared/store-api.js';
import type { StoreScope } from '../../api/query-keys.js';
import { useRevision } from '../../api/store-queries.js';
import { href, Link } from '../../app/router.js';
import { Badge } from '../../components/badge.js';
import { Button } from '../../components/button.js';
import { ErrorMessage, Loading } from '../../components/feedback.js';
import { BranchIcon, CompareIcon, FilesIcon, UndoIcon } from '../../components/icons.js';
import { fullTime, timeAgo } from '../../lib/format.js';
import { BranchDialog } from './actions/branch-dialog.js';
import { RollbackDialog } from './actions/rollback-dialog.js';
import { ChangesView } from './changes-view.js';
import { scopeQuery } from './use-scope.js';

type Action = 'rollback' | 'branch' | undefined;

/** One revision: message, metadata, actions, and the diff of every document it changed. */
export function RevisionDetail({
  scope,
  id,
  headId,
  fromLog,
  focusToken,
}: {
  readonly scope: StoreScope;
  readonly id: number;
  readonly headId: number;
  readonly fromLog?: LogEntry;
  readonly focusToken: number;
}) {
  const fetched = useRevision(scope.namespace, fromLog ? undefined : id);
  const [action, setAction] = useState<Action>();
  const entry = fromLog ?? fetched.data;
  if (!entry) {
    if (fetched.isError)
      return (
        <div className="page-body">
          <ErrorMessage error={fetched.error} title={`Could not load revision #${id}`} />
        </div>
      );
    return <Loading label={`Loading revision #${id}…`} />;
  }
  const isHead = entry.id === headId;
  return (
    <div className="revision-detail" data-testid="revision-detail">
      <header className="revision-header">
        <div className="revision-header-text">
          <h2 className="revision-title">{entry.message || '(no message)'}</h2>
          <div className="revision-meta">
            <span className="mono">#{entry.id}</span>
            <span>on {entry.branch}</span>
            <span>
              {entry.parent_id ? (
                <>
                  parent <span className="mono">#{entry.parent_id}</span>
                </>
              ) : (
                'first revision'
              )}
            </span>
            <time dateTime={entry.created_at} title={fullTime(entry.created_at)}>
              {timeAgo(entry.created_at)}
            </time>
            {isHead && <Badge tone="accent">head</Badge>}
          </div>
        </div>
        <div className="revision-actions">
          <Button
            size="sm"
            icon={<UndoIcon />}
            disabled={isHead}
            title={isHead ? 'This is already the head' : undefined}
            onClick={() => setAction('rollback')}
            data-testid="rollback-button"
          >
            Roll back to this
          </Button>
          <Button size="sm" icon={<BranchIcon />} onClick={() => setAction('branch')}>
            Branch
          </Button>
          <Link
            className="btn btn-ghost btn-sm"
            to={href('store/documents', { ...scopeQuery(scope), rev: entry.id })}
            title="Browse documents at this revision"
          >
            <FilesIcon />
            <span>Documents</span>
          </Link>
          <Link
            className="btn btn-ghost btn-sm"
            to={href('store/compare', { ...scopeQuery(scope), from: entry.id, to: headId })}
            title="Compare with head"
          >
            <CompareIcon />
            <span>Compare</span>
          </Link>
        </div>
      </header>
      <ChangesView
        changes={entry.changes}
        autoFocus={focusToken || false}
        onEscape={() => document.getElementById('log-list')?.focus()}
        emptyText="This revision changed no documents."
      />
      {action === 'rollback' && (
        <RollbackDialog scope={scope} target={{ revision: entry.id }} onClose={() => setAction(undefined)} />
      )}
      {action === 'branch' && (
        <BranchDialog scope={scope} from={{ revision: entry.id }} onClose={() => setAction(undefined)} />
      )}
    </div>
  );
}
