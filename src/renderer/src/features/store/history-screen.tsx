import { useCallback, useEffect, useMemo, useState } from 'react';
import type { BranchSummary } from '../../../../shared/store-api.js';
import { useBranches, useCheckpoints } from '../../api/store-queries.js';
import { href, Link, navigate, updateSearch, useSearchParams } from '../../app/router.js';
import { Button } from '../../components/button.js';
import { VisibleName } from '../../components/diff/visible-text.js';
import { EmptyState, ErrorMessage, Loading } from '../../components/feedback.js';
import { VirtualList } from '../../components/virtual-list.js';
import { plural } from '../../lib/format.js';
import { nameText } from '../../lib/invisible-chars.js';
import { decodeRevisionParam, revisionIdOf, sourceSyntaxProblem } from './actions/source.js';
import { branchBase, originHistoryHref, useBranchOrigin } from './branch-origin.js';
import { checkpointsByRevision } from './checkpoint-marks.js';
import { LOG_ROW_HEIGHT, LogRow, PRUNED_LOG_ROW_HEIGHT } from './log-row.js';
import { prunedParents } from './pruned-history.js';
import { RevisionDetail } from './revision-detail.js';
import { EmptyBranch } from './store-empty.js';
import { useHistoryLog } from './use-history-log.js';
import { scopeQuery, useScope } from './use-scope.js';

/**
 * The history of a branch, as in GitHub Desktop: the revision log on the left (virtualised, paged
 * as it scrolls), the selected revision's changes and diffs on the right.
 */
export function HistoryScreen() {
  return (
    <>
      <h1 className="visually-hidden">History</h1>
      <HistoryView />
    </>
  );
}

/**
 * Whether `branch` can have a log: the namespace has it, or has no branch at all (nothing written, an
 * empty log). False until the list is read, so a mistyped or deleted branch is never asked for.
 */
function branchMayHaveLog(branches: readonly BranchSummary[] | undefined, branch: string): boolean {
  return branches !== undefined && (branches.length === 0 || branches.some((listed) => listed.name === branch));
}

/**
 * Shows revision `id`, on its first changed document, as a new entry of the browser's history: Back
 * returns to the revision chosen before, as on GitHub's commit pages, rather than leaving History.
 * The rest of the address (scope, `document=`) is kept. The revision shown before any is chosen (the
 * head) is not in the address, so opening History adds no entry of its own.
 */
function chooseRevision(id: number): void {
  const params = new URLSearchParams(window.location.search);
  params.set('rev', String(id));
  params.delete('key');
  navigate(`${window.location.pathname}?${params.toString()}`);
}

function HistoryView() {
  const scope = useScope();
  const params = useSearchParams();
  // One document's history (`document=`), as `git log -- <path>`; empty: the whole branch's.
  const documentKey = params.get('document') ?? '';
  // One document's log starts at its latest change, which need not be the branch's head: that comes
  // from the branch list (the scope picker's, so no extra request), undefined until it is read.
  const branches = useBranches(scope);
  const branchHead = branches.data?.branches.find((branch) => branch.current)?.head_revision;
  const rev = params.get('rev');
  const typed = rev ? decodeRevisionParam(rev) : undefined;
  const requested = typed === undefined ? undefined : revisionIdOf(typed);
  // A rev= that is no revision id is named, rather than silently showing the head instead.
  const problem = typed === undefined ? undefined : sourceSyntaxProblem({ kind: 'revision', revision: typed });
  // The log of a branch the namespace does not have is a 404; the screen names it from this list instead.
  const mayHaveLog = branchMayHaveLog(branches.data?.branches, scope.branch);
  // Its first page is always read: a write shows at the top while the selected revision is among them.
  const fromHead = useHistoryLog(scope, documentKey, mayHaveLog);
  const headEntries = useMemo(() => fromHead.data?.pages.flatMap((page) => page.entries) ?? [], [fromHead.data]);
  const headOldest = headEntries.at(-1)?.id;
  // A revision older than those (a link into a long history, a reload) starts a log of its own there,
  // rather than every newer page being read first; newer ones are read on demand. It stays while the
  // selection moves among its rows, and moves to a revision chosen outside them.
  const olderThanHead =
    requested !== undefined && headOldest !== undefined && requested < headOldest && fromHead.hasNextPage;
  const [start, setStart] = useState<number>();
  const fromStart = useHistoryLog(scope, documentKey, mayHaveLog && start !== undefined, start, branchHead);
  // A start the log does not hold (another branch's revision, one the document filter leaves out, one
  // gone) shows the log from the head, with that revision in the detail pane.
  // Until its first page arrives, the head's log shows, with no row selected.
  const anchored = start !== undefined && fromStart.data !== undefined && !fromStart.startMissed;
  const log = anchored ? fromStart : fromHead;
  // The same list the Checkpoints screen reads (and a new checkpoint refreshes): marks in the log.
  const checkpointList = useCheckpoints(scope.namespace).data?.checkpoints;
  const checkpoints = useMemo(() => checkpointsByRevision(checkpointList), [checkpointList]);
  // The log is per branch: one made from another starts with a copy of it, and its earlier history is
  // the base's, linked under the oldest revision.
  const origin = useBranchOrigin(scope.namespace, branchBase(branches.data?.branches, scope.branch));
  // Enter on the log moves focus into that revision's changed documents; only that one's: the token is
  // tied to the revision, so moving on in the log afterwards (j / k, a click) leaves focus in the log.
  const [detailFocus, setDetailFocus] = useState<{ readonly id: number; readonly count: number }>();
  const entries = useMemo(() => log.data?.pages.flatMap((page) => page.entries) ?? [], [log.data]);
  const headId = documentKey || anchored ? branchHead : entries[0]?.id;
  // The newest page read holds the newest count.
  const total = log.data?.pages[log.data.pages.length - 1]?.total;
  const selectedId = problem ? undefined : (requested ?? entries[0]?.id);
  const selectedIndex = entries.findIndex((entry) => entry.id === selectedId);
  const { hasNextPage, isFetchingNextPage, fetchNextPage, hasPreviousPage, isFetchingPreviousPage } = log;
  useEffect(() => {
    if (problem || (requested !== undefined && entries.some((entry) => entry.id === requested))) return;
    if (requested === undefined || headEntries.some((entry) => entry.id === requested)) setStart(undefined);
    else if (olderThanHead) setStart(requested);
  }, [requested, entries, headEntries, olderThanHead, problem]);
  // Where gc cut the branch's history; one document's log skips revisions anyway, so says nothing of it.
  const pruned = useMemo(
    () => (documentKey ? new Map<number, number>() : prunedParents(entries, !hasNextPage)),
    [documentKey, entries, hasNextPage],
  );
  const rowHeightOf = useCallback(
    (index: number) => (pruned.has(entries[index]?.id ?? 0) ? PRUNED_LOG_ROW_HEIGHT : LOG_ROW_HEIGHT),
    [pruned, entries],
  );
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  // End goes to the oldest revision: the pages still unread are read first, then the last is selected.
  const [toOldest, setToOldest] = useState(false);
  const goToOldest = useCallback(() => setToOldest(true), []);
  useEffect(() => {
    if (!toOldest || isFetchingNextPage) return;
    if (hasNextPage) {
      void fetchNextPage();
      return;
    }
    setToOldest(false);
    const last = entries.at(-1);
    if (last !== undefined) chooseRevision(last.id);
  }, [toOldest, hasNextPage, isFetchingNextPage, fetchNextPage, entries]);
  // Until the log read from a linked revision arrives it highlights no row, and j / k would start from
  // the head: moves pressed meanwhile are kept and go on from the selected revision once its row is
  // read. If it never will be (a revision of another branch, one that is gone, one a document filter
  // leaves out), they are made as from no row highlighted, as the keys do on a list with nothing selected.
  const rowComing =
    requested !== undefined &&
    !problem &&
    selectedIndex < 0 &&
    (fromHead.isPending || (requested === start ? fromStart.isPending : olderThanHead));
  const [pendingMove, setPendingMove] = useState(0);
  const keepMove = useCallback((by: number) => setPendingMove((kept) => kept + by), []);
  useEffect(() => {
    if (pendingMove === 0) return;
    if (selectedIndex < 0 && rowComing) return;
    // From no row, a move down by n lands on the n-th row and a move up on the first.
    const from = selectedIndex >= 0 ? selectedIndex : pendingMove > 0 ? -1 : 0;
    const to = entries[Math.max(0, Math.min(entries.length - 1, from + pendingMove))];
    if (to) chooseRevision(to.id);
    setPendingMove(0);
  }, [pendingMove, selectedIndex, rowComing, entries]);

  if (branches.data !== undefined && !branchMayHaveLog(branches.data.branches, scope.branch))
    return (
      <div className="page-body">
        <EmptyBranch scope={scope} path="store/history" />
      </div>
    );
  if (log.isPending) return <Loading label="Loading history…" />;
  if (log.isError)
    return (
      <div className="page-body">
        <ErrorMessage error={log.error} title="Could not load the history" />
      </div>
    );
  if (entries.length === 0 && documentKey !== '')
    return (
      <div className="page-body">
        <EmptyState
          title={`No revision of ${scope.branch} changed “${nameText(documentKey)}”`}
          action={<Button onClick={() => updateSearch({ document: undefined })}>Show all revisions</Button>}
        >
          It may have been written only on another branch, or its revisions collected by garbage collection.
        </EmptyState>
      </div>
    );
  if (entries.length === 0)
    return (
      <div className="page-body">
        <EmptyBranch scope={scope} path="store/history" />
      </div>
    );

  return (
    <div className="split-view history" data-testid="history-screen">
      <section className="split-list">
        <header className="split-list-header">
          {documentKey ? (
            <span className="split-list-title">
              <span className="mono" title={nameText(documentKey)}>
                <VisibleName text={documentKey} />
              </span>{' '}
              <span className="muted">on {scope.branch}</span>{' '}
              <Link to={href('store/history', scopeQuery(scope))}>Show all revisions</Link>
            </span>
          ) : (
            <span className="split-list-title">
              {scope.branch} <span className="muted">in {scope.namespace}</span>
            </span>
          )}
          <span className="muted">
            {total !== undefined
              ? plural(total, 'revision')
              : hasNextPage
                ? `${entries.length}+ revisions`
                : plural(entries.length, 'revision')}
          </span>
        </header>
        {anchored && (hasPreviousPage || isFetchingPreviousPage) && (
          <div className="split-list-footer">
            <Button
              size="sm"
              variant="ghost"
              disabled={isFetchingPreviousPage}
              onClick={() => void log.fetchPreviousPage()}
            >
              {isFetchingPreviousPage ? 'Loading newer revisions…' : 'Load newer revisions'}
            </Button>
          </div>
        )}
        <VirtualList
          label="Revisions"
          testId="log-list"
          count={entries.length}
          setSize={total}
          rowHeight={LOG_ROW_HEIGHT}
          rowHeightOf={rowHeightOf}
          autoFocus
          selected={selectedIndex}
          onSelect={(index) => {
            setPendingMove(0);
            chooseRevision(entries[index]!.id);
          }}
          onMoveUnread={rowComing ? keepMove : undefined}
          onOpen={(index) => setDetailFocus((last) => ({ id: entries[index]!.id, count: (last?.count ?? 0) + 1 }))}
          onEndReached={loadMore}
          onEnd={goToOldest}
          rowKey={(index) => entries[index]!.id}
          renderRow={(index) => (
            <LogRow
              entry={entries[index]!}
              head={entries[index]!.id === headId}
              checkpoints={checkpoints.get(entries[index]!.id)}
              prunedUpTo={pruned.get(entries[index]!.id)}
              origin={entries[index]!.parent_id === 0 ? origin : undefined}
            />
          )}
        />
        {isFetchingNextPage && <div className="split-list-footer">Loading older revisions…</div>}
        {!hasNextPage && origin?.branch !== undefined && (
          <div className="split-list-footer" data-testid="earlier-history">
            Earlier history:{' '}
            <Link to={originHistoryHref(scope.namespace, origin, documentKey || undefined)}>
              {origin.branch} up to #{origin.revision}
            </Link>
          </div>
        )}
      </section>
      <section className="split-detail">
        {problem && (
          <div className="page-body">
            <ErrorMessage error={new Error(`${problem.detail} Pick one in the log.`)} title={problem.title} />
          </div>
        )}
        {selectedId !== undefined && (
          <RevisionDetail
            key={selectedId}
            scope={scope}
            id={selectedId}
            headId={headId}
            checkpoints={checkpoints.get(selectedId) ?? []}
            preferredKey={documentKey || undefined}
            fromLog={selectedIndex >= 0 ? entries[selectedIndex] : undefined}
            parentRemoved={selectedId !== undefined && pruned.has(selectedId)}
            focusToken={detailFocus?.id === selectedId ? detailFocus.count : 0}
          />
        )}
      </section>
    </div>
  );
}
