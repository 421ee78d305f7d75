import { useMemo, useRef, useState } from 'react';
import { useStateDocument, useStateKeys } from '../../api/store-queries.js';
import { href, updateSearch, useSearchParams } from '../../app/router.js';
import { Button } from '../../components/button.js';
import { ErrorMessage, Loading } from '../../components/feedback.js';
import { RestoreIcon, UndoIcon } from '../../components/icons.js';
import { assertNever } from '../../../../shared/assert-never.js';
import { plural } from '../../lib/format.js';
import { compareKeys, documentContent } from '../../lib/state-diff.js';
import { useFilterShortcut } from '../../lib/use-filter-shortcut.js';
import { useActionAccess } from './action-access.js';
import { RestoreDialog } from './actions/restore-dialog.js';
import { RollbackDialog } from './actions/rollback-dialog.js';
import { decodeRevisionParam, encodeRevisionParam } from './actions/source.js';
import { CheckpointElsewhere } from './checkpoint-elsewhere.js';
import { DocumentKeyList, useFilteredKeys } from './document-key-list.js';
import { DocumentPane } from './document-pane.js';
import { DeletedDocumentLastVersion } from './document-restore-deleted.js';
import { DocumentRestoreDialog } from './document-restore-dialog.js';
import { checkpointProblem } from './checkpoint-lookup.js';
import { usePickedCheckpoint } from './picked-checkpoint.js';
import { pickedProblem, RevisionPicker, selectorOf, type PickedRevision } from './revision-picker.js';
import { EmptyBranch } from './store-empty.js';
import { scopeQuery, useScope } from './use-scope.js';

/** What the address asks to show: `checkpoint=<name>`, `rev=<id>` (kept as typed, see `encodeRevisionParam`), else the head. */
function pickedFrom(params: URLSearchParams): PickedRevision {
  const checkpoint = params.get('checkpoint');
  if (checkpoint) return { kind: 'checkpoint', checkpoint };
  const rev = params.get('rev');
  return rev ? { kind: 'revision', revision: decodeRevisionParam(rev) } : { kind: 'head' };
}

/** Where the documents on screen come from, for messages: "on main at the head (#12)". */
function describeWhere(branch: string, picked: PickedRevision, revision: number): string {
  switch (picked.kind) {
    case 'head':
      return `on ${branch} at the head (#${revision})`;
    case 'revision':
      return `on ${branch} at #${revision}`;
    case 'checkpoint':
      return `at checkpoint “${picked.checkpoint}” (#${revision})`;
    default:
      return assertNever(picked);
  }
}

/** The documents of a branch at the head, any revision or any checkpoint, with a filter. */
export function DocumentsScreen() {
  return (
    <>
      <h1 className="visually-hidden">Documents</h1>
      <DocumentsView />
    </>
  );
}

function DocumentsView() {
  const scope = useScope();
  const params = useSearchParams();
  const picked = pickedFrom(params);
  const checkpoint = usePickedCheckpoint(scope.namespace, picked);
  const syntax = pickedProblem(picked);
  const problem = syntax
    ? { title: syntax.title, error: new Error(syntax.detail) }
    : checkpointProblem(checkpoint, scope.namespace);
  // Undefined while the revision id is empty or not one: nothing to read, and no silent fallback to the head.
  const selector = selectorOf(picked);
  const at = selector ?? {};
  // A checkpoint is read once the namespace's list has it: one it lacks is named above, not asked for.
  const readable = selector !== undefined && (picked.kind !== 'checkpoint' || checkpoint.status === 'found');
  // Names and sizes only: a revision of large documents is listed without downloading them, and the
  // document shown is read alone, at the revision listed (the head may move meanwhile).
  const state = useStateKeys(scope, at, readable);
  const head = useStateKeys(scope, {});
  // In the address (`q=`), as on Keys and Live traffic: a reload or a link shows the same filtered list.
  const filter = params.get('q') ?? '';
  const setFilter = (next: string): void => updateSearch({ q: next });
  // The list takes focus when its rows arrive unless focus is already elsewhere on the screen (`true`:
  // a revision id being typed keeps it while each id loads), and when the filter hands over (a new
  // number), never while the user types in the filter (`false`).
  const [listFocus, setListFocus] = useState<number | boolean>(true);
  const focusCount = useRef(1);
  const focusList = (): void => setListFocus(++focusCount.current);
  const [action, setAction] = useState<'rollback' | 'restore' | 'restore-document'>();
  const filterRef = useFilterShortcut();
  const keys = useMemo(() => (state.data?.documents ?? []).map(({ key }) => key).sort(compareKeys), [state.data]);
  const listed = useMemo(() => new Set(keys), [keys]);
  const shown = useFilteredKeys(keys, filter);
  const selectedKey = params.get('key') ?? shown[0];
  const opened = selectedKey !== undefined && listed.has(selectedKey) ? selectedKey : undefined;
  // Read as the list was (a checkpoint may sit on another branch, whose revision this branch cannot
  // name); at head, at the revision listed, which a write meanwhile does not move.
  const openedAt = at.checkpoint || at.revision ? at : { revision: state.data?.revision };
  const opening = useStateDocument(scope, openedAt, opened, !!state.data);
  const content = opened !== undefined && opening.data ? documentContent(opening.data.objects, opened) : undefined;
  const select = (key: string): void => updateSearch({ key });
  // Rollback reaches the branch's own history; a checkpoint of another branch is restored instead,
  // as on the Checkpoints screen.
  const elsewhere =
    checkpoint.status === 'found' && checkpoint.checkpoint.branch !== scope.branch ? checkpoint.checkpoint : undefined;

  const atHead = !at.checkpoint && (!at.revision || at.revision === head.data?.revision);
  // Another revision of this branch is loading: the last one's documents stay in place meanwhile, said
  // to be that revision's and without actions, which would act on the revision being loaded.
  const previous = state.isPlaceholderData;
  const offersRollback = readable && !atHead && !!state.data && !previous;
  const actions = useActionAccess(scope.namespace);
  // One document of an older version, unlike the head's (changed or deleted since): it can be brought back alone.
  const headDocument = useStateDocument(
    scope,
    { revision: head.data?.revision },
    opened,
    offersRollback && !!head.data,
  );
  const restorable =
    offersRollback && opened !== undefined && content !== undefined && !!headDocument.data
      ? documentContent(headDocument.data.objects, opened) !== content
      : false;
  const toolbar = (
    <header className="toolbar toolbar-wrap">
      <span className="toolbar-title">Documents at</span>
      <RevisionPicker
        scope={scope}
        value={picked}
        headRevision={head.data?.revision}
        onChange={(next) => {
          setListFocus(true);
          updateSearch({
            rev: next.kind === 'revision' ? encodeRevisionParam(next.revision) : undefined,
            checkpoint: next.kind === 'checkpoint' ? next.checkpoint : undefined,
            key: undefined,
          });
        }}
      />
      {readable && state.data && (
        <span className="muted" data-testid="state-summary" aria-busy={previous || undefined}>
          {previous && <span className="spinner spinner-sm" aria-hidden="true" />}
          {previous ? 'Loading; showing ' : ''}
          {plural(keys.length, 'document')} at <span className="mono">#{state.data.revision}</span>
        </span>
      )}
      {offersRollback && (
        <Button
          size="sm"
          className="toolbar-end"
          icon={elsewhere ? <RestoreIcon /> : <UndoIcon />}
          onClick={() => setAction(elsewhere ? 'restore' : 'rollback')}
          {...actions.guard('write')}
        >
          {elsewhere ? `Restore into ${scope.branch}` : `Roll back ${scope.branch} to this`}
        </Button>
      )}
      {elsewhere && <CheckpointElsewhere checkpoint={elsewhere} scope={scope} />}
      {offersRollback && actions.note(['write'])}
    </header>
  );
  if (problem)
    return (
      <div className="page-body">
        {toolbar}
        <ErrorMessage error={problem.error} title={problem.title} />
      </div>
    );
  if (!selector)
    return (
      <div className="page-body">
        {toolbar}
        <p className="muted">Type a revision id to see its documents.</p>
      </div>
    );
  if (!readable || state.isPending) return <Loading label="Loading documents…" />;
  if (state.isError)
    return (
      <div className="page-body">
        {toolbar}
        <ErrorMessage error={state.error} title="Could not load the documents" />
      </div>
    );
  if (state.data.revision === 0)
    return (
      <div className="page-body">
        <EmptyBranch scope={scope} path="store/documents" />
      </div>
    );

  return (
    <div className="documents" data-testid="documents-screen">
      {toolbar}
      <div className="split-view">
        <DocumentKeyList
          keys={keys}
          shown={shown}
          filter={filter}
          onFilter={(next) => {
            setFilter(next);
            setListFocus(false);
          }}
          selectedKey={selectedKey}
          onSelect={select}
          focusToken={listFocus}
          onFocusList={focusList}
          filterRef={filterRef}
        />
        <section className="split-detail">
          <DocumentPane
            documentKey={selectedKey}
            content={content}
            loading={opened !== undefined && opening.isPending}
            error={opening.error ?? undefined}
            where={describeWhere(scope.branch, picked, state.data.revision)}
            historyHref={href('store/history', { ...scopeQuery(scope), document: selectedKey })}
            actions={
              restorable && (
                <Button
                  size="sm"
                  variant="ghost"
                  icon={<RestoreIcon />}
                  onClick={() => setAction('restore-document')}
                  data-testid="restore-document"
                  {...actions.guard('write', {
                    title: `Give this document its content at #${state.data.revision} again`,
                  })}
                >
                  Restore this document to {scope.branch}
                </Button>
              )
            }
            missingHint={
              atHead &&
              selectedKey !== undefined && <DeletedDocumentLastVersion scope={scope} documentKey={selectedKey} />
            }
            onBack={
              keys.length > 0
                ? () => {
                    updateSearch({ q: undefined, key: keys[0] });
                    focusList();
                  }
                : undefined
            }
          />
        </section>
      </div>
      {action === 'rollback' && <RollbackDialog scope={scope} target={at} onClose={() => setAction(undefined)} />}
      {action === 'restore-document' && selectedKey !== undefined && content !== undefined && (
        <DocumentRestoreDialog
          scope={scope}
          documentKey={selectedKey}
          content={content}
          version={{ at, revision: state.data.revision }}
          onClose={() => setAction(undefined)}
        />
      )}
      {action === 'restore' && elsewhere && (
        <RestoreDialog
          scope={scope}
          initial={{ kind: 'checkpoint', checkpoint: elsewhere.name }}
          onClose={() => setAction(undefined)}
        />
      )}
    </div>
  );
}
