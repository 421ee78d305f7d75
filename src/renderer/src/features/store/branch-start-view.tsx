import { useEffect, useRef } from 'react';
import type { LogEntry } from '../../../../shared/store-api.js';
import { href, Link } from '../../app/router.js';
import { VisibleName } from '../../components/diff/visible-text.js';
import { EmptyState } from '../../components/feedback.js';
import { plural } from '../../lib/format.js';
import { nameText } from '../../lib/invisible-chars.js';
import { OriginLink, type BranchOrigin, originName } from './branch-origin.js';

/** Documents listed by name; a branch of more is browsed in Documents, where the list is paged. */
const SHOWN = 200;

/**
 * What a branch's creation revision holds: a copy of its base's documents, listed "as of main@12" with
 * a way to each one's contents and to its history before the branch, rather than as a diff from nothing
 * that would read as every document newly created.
 */
export function BranchStartView({
  namespace,
  entry,
  origin,
  focusToken,
  onEscape,
}: {
  readonly namespace: string;
  readonly entry: LogEntry;
  readonly origin: BranchOrigin;
  /** A new truthy value moves focus to the first document (Enter on the log). */
  readonly focusToken: number;
  readonly onEscape: () => void;
}) {
  const listRef = useRef<HTMLUListElement>(null);
  useEffect(() => {
    if (focusToken) listRef.current?.querySelector('a')?.focus();
  }, [focusToken]);
  const keys = entry.changes.map((change) => change.key);
  const at = href('store/documents', { ns: namespace, branch: entry.branch, rev: entry.id });
  if (keys.length === 0) return <EmptyState title={`${originName(origin)} had no documents to copy.`} />;
  return (
    <div className="page-body" data-testid="branch-start">
      <p>
        {plural(keys.length, 'document')} as of <OriginLink namespace={namespace} origin={origin} />, copied when{' '}
        {entry.branch} was made: not new content. Each one’s earlier changes are in the history of{' '}
        {origin.branch ?? 'the branch it was made from'}.
      </p>
      <ul
        ref={listRef}
        aria-label={`Documents as of ${originName(origin)}`}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onEscape();
        }}
      >
        {keys.slice(0, SHOWN).map((key) => (
          <li key={key}>
            <Link
              className="mono"
              to={href('store/documents', { ns: namespace, branch: entry.branch, rev: entry.id, key })}
              aria-label={`Open ${nameText(key)} at #${entry.id}`}
            >
              <VisibleName text={key} />
            </Link>
            {origin.branch !== undefined && (
              <>
                {' · '}
                <Link
                  to={href('store/history', { ns: namespace, branch: origin.branch, document: key })}
                  aria-label={`History of ${nameText(key)} on ${origin.branch}`}
                >
                  history on {origin.branch}
                </Link>
              </>
            )}
          </li>
        ))}
      </ul>
      {keys.length > SHOWN && (
        <p>
          And {plural(keys.length - SHOWN, 'more document')}: <Link to={at}>browse them in Documents</Link>.
        </p>
      )}
    </div>
  );
}
