import { useState } from 'react';
import type { Change, LogEntry } from '../../../../shared/store-api.js';
import type { StoreScope } from '../../api/query-keys.js';
import { useBranches, useRevision, useRevisionChange, useRevisionContents } from '../../api/store-queries.js';
import { href, Link } from '../../app/router.js';
import { Badge } from '../../components/badge.js';
import { Button } from '../../components/button.js';
import { VisibleName } from '../../components/diff/visible-text.js';
import { EmptyState, ErrorMessage, Loading } from '../../components/feedback.js';
import { BranchIcon, CompareIcon, FilesIcon, RestoreIcon, TagIcon, UndoIcon } from '../../components/icons.js';
import { fullTime, timeAgo } from '../../lib/format.js';
import { nameText } from '../../lib/invisible-chars.js';
import { useActionAccess } from './action-access.js';
import { BranchDialog } from './actions/branch-dialog.js';
import { CreateCheckpointDialog } from './actions/checkpoint-dialogs.js';
import { CherryPickDialog } from './actions/cherry-pick-dialog.js';
import { RestoreDialog } from './actions/restore-dialog.js';
import { RevertDialog } from './actions/revert-dialog.js';
import { RollbackDialog } from './actions/rollback-dialog.js';
import { revisionSource } from './actions/source.js';
import { creationBase, OriginLink, originName, useBranchOrigin } from './branch-origin.js';
import { BranchStartView } from './branch-start-view.js';
import { ChangesView, LazyChangeDiff } from './changes-view.js';
import { RevisionMessage } from './revision-message.js';
import { scopeQuery } from './use-scope.js';

type Action = 'rollback' | 'revert' | 'restore' | 'cherry-pick' | 'branch' | 'checkpoint' | undefined;

/** The id of the history's revision log (its `testId`), where focus goes back from this pane. */
const LOG_LIST_ID = 'log-list';

/** A write shows its new revision in place of this one, taking the dialog's opener with it: the log is next. */
const logList = (): HTMLElement | null => document.getElementById(LOG_LIST_ID);

/** One revision: message, metadata, actions, and the diff of every document it changed. */
export function RevisionDetail({
  scope,
  id,
  headId,
  checkpoints,
  preferredKey,
  fromLog,
  focusToken,
  parentRemoved = false,
}: {
  readonly scope: StoreScope;
  readonly id: number;
  /** The branch's head, undefined while it is being read. */
  readonly headId: number | undefined;
  /** Names of the checkpoints at this revision. */
  readonly checkpoints: readonly string[];
  /** The document shown first (a document's history shows that document). */
  readonly preferredKey?: string;
  readonly fromLog?: LogEntry;
  readonly focusToken: number;
  /** gc removed the parent revision: it is named as gone, and nothing offers to compare with it. */
  readonly parentRemoved?: boolean;
}) {
  // The revision's changes come as keys, types and sizes (its documents can be megabytes each); the
  // diff pane reads the one document shown. The log's entry draws the header meanwhile.
  const fetched = useRevision(scope.namespace, id);
  const [action, setAction] = useState<Action>();
  // A revert's preview works from every change's contents: read once Revert is pointed at or focused
  // (so the dialog usually opens at once), never only to show the revision.
  const [contentsWanted, setContentsWanted] = useState<number>();
  const withContents = useRevisionContents(scope.namespace, id, action === 'revert' || contentsWanted === id);
  const actions = useActionAccess(scope.namespace);
  const entry = fetched.data ?? fromLog;
  const full = fetched.data;
  // The same list the history's scope picker reads: it says whether this is a branch's creation.
  const branches = useBranches(scope).data?.branches;
  const origin = useBranchOrigin(scope.namespace, entry && creationBase(entry, branches));
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
  // Until the branch's head is read (a document's history), whether this is it is not known.
  const headUnknown = headId === undefined;
  // Rollback reaches only revisions of the branch's own history (the store answers 404 otherwise);
  // a revision of another branch, such as the base this one started from, is restored instead.
  const onBranch = entry.branch === scope.branch;
  const own: StoreScope = { namespace: scope.namespace, branch: entry.branch };
  return (
    <div className="revision-detail" data-testid="revision-detail">
      <header className="revision-header">
        <div className="revision-header-text">
          <RevisionMessage message={entry.message} />
          <div className="revision-meta">
            <span className="mono">#{entry.id}</span>
            <span>on {entry.branch}</span>
            <span>
              {entry.parent_id ? (
                <>
                  parent <span className="mono">#{entry.parent_id}</span>
                  {parentRemoved && ' (removed by garbage collection)'}
                </>
              ) : origin ? (
                <span data-testid="branched-from">
                  branched from <OriginLink namespace={scope.namespace} origin={origin} />
                </span>
              ) : (
                'first revision'
              )}
            </span>
            <time dateTime={entry.created_at} title={fullTime(entry.created_at)}>
              {timeAgo(entry.created_at)}
            </time>
            {isHead && <Badge tone="accent">head</Badge>}
            {checkpoints.map((name) => (
              <Link
                key={name}
                className="badge badge-success"
                to={href('store/documents', { ...scopeQuery(own), checkpoint: name })}
                title={`Documents at checkpoint ${nameText(name)}`}
                aria-label={`Documents at checkpoint ${nameText(name)}`}
              >
                <TagIcon size={11} />
                <span className="checkpoint-mark-name">
                  <VisibleName text={name} />
                </span>
              </Link>
            ))}
          </div>
        </div>
        {!onBranch && (
          <p className="revision-note" data-testid="revision-elsewhere">
            #{entry.id} is on {entry.branch}, not in the history of {scope.branch}, so {scope.branch} cannot be rolled
            back to it. Restore copies its documents into {scope.branch} as a new revision instead; Cherry-pick makes
            there only what #{entry.id} changed.{' '}
            <Link to={href('store/history', { ns: scope.namespace, branch: entry.branch, rev: entry.id })}>
              Show it in the history of {entry.branch}
            </Link>
          </p>
        )}
        <div className="revision-actions">
          {onBranch ? (
            <Button
              size="sm"
              icon={<UndoIcon />}
              {...actions.guard('write', {
                disabled: isHead || headUnknown,
                title: isHead ? 'This is already the head' : headUnknown ? 'Reading the branch’s head…' : undefined,
              })}
              onClick={() => setAction('rollback')}
              data-testid="rollback-button"
            >
              Roll back to this
            </Button>
          ) : (
            <Button size="sm" icon={<RestoreIcon />} onClick={() => setAction('restore')} {...actions.guard('write')}>
              Restore into {scope.branch}
            </Button>
          )}
          {onBranch && !origin && (
            <Button
              size="sm"
              icon={<UndoIcon />}
              // Not `busy` while the contents load: a disabled opener would lose focus, and the dialog
              // would give it back to the page rather than to the button.
              onPointerEnter={() => setContentsWanted(id)}
              onFocus={() => setContentsWanted(id)}
              {...actions.guard('write', {
                disabled: !full,
                title: full ? `Take back what #${entry.id} changed, keeping later revisions` : 'Reading the changes…',
              })}
              onClick={() => setAction('revert')}
              data-testid="revert-button"
            >
              Revert this revision
            </Button>
          )}
          {!onBranch && !origin && (
            <Button
              size="sm"
              // The store's dry run is the preview: the log's entry is all the dialog needs.
              {...actions.guard('write', {
                title: `Make on ${scope.branch} what #${entry.id} changed, and nothing else of ${entry.branch}`,
              })}
              onClick={() => setAction('cherry-pick')}
              data-testid="cherry-pick-button"
            >
              Cherry-pick onto {scope.branch}…
            </Button>
          )}
          <Button size="sm" icon={<BranchIcon />} onClick={() => setAction('branch')} {...actions.guard('write')}>
            Branch
          </Button>
          <Button
            size="sm"
            icon={<TagIcon />}
            onClick={() => setAction('checkpoint')}
            {...actions.guard('write', { title: `Name #${entry.id} so it can be found again and is kept by gc` })}
            data-testid="checkpoint-revision-button"
          >
            Checkpoint this revision…
          </Button>
          <Link
            className="btn btn-ghost btn-sm"
            to={href('store/documents', { ...scopeQuery(own), rev: entry.id })}
            title="Browse documents at this revision"
            aria-label={`Documents at #${entry.id}`}
          >
            <FilesIcon />
            <span>Documents</span>
          </Link>
          {headUnknown ? null : !isHead ? (
            <Link
              className="btn btn-ghost btn-sm"
              to={href('store/compare', { ...scopeQuery(scope), from: entry.id, to: headId })}
              title="Compare with head"
              aria-label={`Compare #${entry.id} with head`}
            >
              <CompareIcon />
              <span>Compare</span>
            </Link>
          ) : (
            // The head compared with itself says nothing: it is compared with the revision before it.
            entry.parent_id > 0 &&
            !parentRemoved && (
              <Link
                className="btn btn-ghost btn-sm"
                to={href('store/compare', { ...scopeQuery(scope), from: entry.parent_id, to: entry.id })}
                title="Compare with the revision before"
                aria-label={`Compare #${entry.id} with #${entry.parent_id}`}
              >
                <CompareIcon />
                <span>Compare</span>
              </Link>
            )
          )}
        </div>
        {origin && (
          // Where Revert (or Cherry-pick) was: undoing the copy would delete every document it copied.
          <p className="revision-note" data-testid="branch-start-note">
            A branch’s first revision copies {originName(origin)}: it has nothing of its own to revert or cherry-pick.
            To undo what {entry.branch} changed since, roll {entry.branch} back to this revision; to drop it, delete the
            branch.
          </p>
        )}
        {actions.note(['write'])}
      </header>
      {origin ? (
        <BranchStartView
          namespace={scope.namespace}
          entry={entry}
          origin={origin}
          focusToken={focusToken}
          onEscape={() => logList()?.focus()}
        />
      ) : full ? (
        <ChangesView
          changes={full.changes}
          autoFocus={focusToken || false}
          onEscape={() => logList()?.focus()}
          emptyText="This revision changed no documents."
          linked
          preferredKey={preferredKey}
          omitted={(change) => <ChangeDiff scope={own} entry={full} change={change} />}
        />
      ) : fetched.isError ? (
        <div className="page-body">
          <ErrorMessage error={fetched.error} title={`Could not load the changes of #${id}`} />
        </div>
      ) : (
        <Loading label={`Loading the changes of #${id}…`} />
      )}
      {action === 'rollback' && (
        <RollbackDialog
          scope={scope}
          target={{ revision: entry.id }}
          onClose={() => setAction(undefined)}
          returnFocus={logList}
        />
      )}
      {action === 'revert' && withContents.isError && (
        <ErrorMessage error={withContents.error} title={`Could not read the changes of #${id}`} />
      )}
      {action === 'revert' && withContents.data && (
        <RevertDialog
          scope={scope}
          revision={withContents.data}
          onClose={() => setAction(undefined)}
          returnFocus={logList}
        />
      )}
      {action === 'cherry-pick' && (
        <CherryPickDialog scope={scope} revision={entry} onClose={() => setAction(undefined)} returnFocus={logList} />
      )}
      {action === 'restore' && (
        <RestoreDialog
          scope={scope}
          initial={revisionSource(entry.id)}
          onClose={() => setAction(undefined)}
          returnFocus={logList}
        />
      )}
      {action === 'checkpoint' && (
        <CreateCheckpointDialog
          scope={own}
          revision={entry}
          onClose={() => setAction(undefined)}
          returnFocus={logList}
        />
      )}
      {action === 'branch' && (
        <BranchDialog
          scope={own}
          from={{ revision: entry.id }}
          onClose={() => setAction(undefined)}
          returnFocus={logList}
        />
      )}
    </div>
  );
}

/** One change of a revision. */
interface RevisionChangeProps {
  /** The revision's own branch. */
  readonly scope: StoreScope;
  readonly entry: LogEntry;
  readonly change: Change;
}

/**
 * The diff pane of the one document shown, its two contents read alone (the revision's list carries
 * sizes only); a document larger than the store sends in one answer leads to where it can be read.
 */
function ChangeDiff({ scope, entry, change }: RevisionChangeProps) {
  const read = useRevisionChange(scope.namespace, entry.id, change.key);
  return (
    <LazyChangeDiff
      change={change}
      read={read}
      loaded={read.data?.changes.find((one) => one.key === change.key)}
      tooLarge={<ContentsOmitted scope={scope} entry={entry} change={change} />}
    />
  );
}

/**
 * What the diff pane shows for a change of a revision whose contents passed the store's response
 * limit: a way to the document where it can be read, rather than a diff that would read as empty.
 */
function ContentsOmitted({ scope, entry, change }: RevisionChangeProps) {
  // A deleted document is read where it last was: the revision before.
  const at = change.type === 'delete' ? entry.parent_id : entry.id;
  return (
    <EmptyState
      title="Contents not loaded"
      action={
        <Link
          className="btn btn-secondary btn-sm"
          to={href('store/documents', { ...scopeQuery(scope), rev: at, key: change.key })}
          aria-label={`Open ${nameText(change.key)} at #${at}`}
        >
          Open <VisibleName text={change.key} /> at #{at}
        </Link>
      }
    >
      This revision changed more content than the store sends in one answer (store.limits.response_bytes), so it lists
      the documents it changed without their contents.
    </EmptyState>
  );
}
