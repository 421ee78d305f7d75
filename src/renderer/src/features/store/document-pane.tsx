import type { ReactNode } from 'react';
import { Button } from '../../components/button.js';
import { CopyButton } from '../../components/copy-button.js';
import { ContentView } from '../../components/diff/diff-view.js';
import { VisibleName } from '../../components/diff/visible-text.js';
import { EmptyState, ErrorMessage, Loading } from '../../components/feedback.js';
import { FilesIcon, HistoryIcon } from '../../components/icons.js';
import { Link } from '../../app/router.js';
import { byteLength, formatBytes } from '../../lib/format.js';
import { nameText } from '../../lib/invisible-chars.js';

/**
 * One document's content, or, for a key the address names that these documents lack, a message
 * naming it and where it was looked for (`where`: "on main at #12"), with a way back to the list.
 */
export function DocumentPane({
  documentKey,
  content,
  where,
  historyHref,
  onBack,
  actions,
  missingHint,
  loading = false,
  error,
}: {
  readonly documentKey: string | undefined;
  readonly content: string | undefined;
  /** The document is listed and its content is being read (it is read alone, once opened). */
  readonly loading?: boolean;
  /** Reading its content failed. */
  readonly error?: Error;
  readonly where: string;
  /** The address of the document's history on the branch shown. */
  readonly historyHref: string;
  /** Shows the first document instead; undefined when there is none. */
  readonly onBack: (() => void) | undefined;
  /** More actions on the document shown (restoring an older version of it), before History. */
  readonly actions?: ReactNode;
  /** Shown under the message about a missing document: where to find it (its last version, when deleted). */
  readonly missingHint?: ReactNode;
}) {
  if (documentKey === undefined) return null;
  if (error) return <ErrorMessage error={error} title={`Could not read “${nameText(documentKey)}”`} />;
  if (loading) return <Loading label={`Loading ${nameText(documentKey)}…`} />;
  if (content === undefined)
    return (
      <div className="page-body" data-testid="document-missing">
        <EmptyState
          icon={<FilesIcon size={28} />}
          title={`No document “${nameText(documentKey)}” ${where}`}
          action={onBack && <Button onClick={onBack}>Show the first document</Button>}
        >
          It may have been deleted or renamed, or exist only on another branch or at another revision.
          {missingHint}
        </EmptyState>
      </div>
    );
  return (
    <div className="document-view">
      <div className="changes-diff-header">
        <div className="changes-diff-title">
          <span className="mono changes-diff-key" data-testid="document-key" title={nameText(documentKey)}>
            <VisibleName text={documentKey} />
          </span>
          <span className="muted">{formatBytes(byteLength(content))}</span>
        </div>
        <span className="row-actions">
          {actions}
          <Link
            className="btn btn-ghost btn-sm"
            to={historyHref}
            title="The revisions that changed this document"
            aria-label={`History of ${nameText(documentKey)}`}
          >
            <HistoryIcon />
            <span>History</span>
          </Link>
          <CopyButton text={content} label="Copy content" />
        </span>
      </div>
      <ContentView content={content} label={`Content of ${nameText(documentKey)}`} />
    </div>
  );
}
