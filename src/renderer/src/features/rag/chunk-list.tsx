import { useEffect, useMemo, useRef, useState } from 'react';
import { Badge } from '../../components/badge.js';
import { Button } from '../../components/button.js';
import { ErrorMessage, Loading } from '../../components/feedback.js';
import { formatInt, plural } from '../../lib/format.js';
import { CHUNK_PAGE_SIZE, useRagChunks } from './rag-queries.js';

/**
 * The chunks of a collection or of one document, a page at a time: a document may have thousands, so
 * more are read only when asked for. `total` is how many there are, when the caller knows.
 */
export function ChunkList({
  collection,
  document,
  total,
}: {
  readonly collection: string;
  readonly document: string | undefined;
  readonly total: number | undefined;
}) {
  const chunks = useRagChunks(collection, document);
  const list = useRef<HTMLOListElement>(null);
  const shown = useMemo(() => chunks.data?.pages.flatMap((page) => page.data) ?? [], [chunks.data]);
  // Where keyboard focus goes once the next page is in: its first chunk, so reading goes on from there
  // (the button that asked may be gone when that page was the last).
  const [focusAt, setFocusAt] = useState<number>();
  useEffect(() => {
    if (focusAt === undefined || shown.length <= focusAt) return;
    (list.current?.children[focusAt] as HTMLElement | undefined)?.focus();
    setFocusAt(undefined);
  }, [focusAt, shown.length]);

  if (chunks.isPending) return <Loading label="Loading chunks…" />;
  if (chunks.isError && shown.length === 0)
    return <ErrorMessage error={chunks.error} title="Could not load the chunks" />;
  const next = Math.min(CHUNK_PAGE_SIZE, total === undefined ? CHUNK_PAGE_SIZE : total - shown.length);
  return (
    <>
      <ol className="rag-hits" data-testid="rag-chunks" ref={list}>
        {shown.map((chunk, index) => (
          <li key={chunk.id} className="rag-hit" tabIndex={-1}>
            <div className="chip-row">
              <span className="mono">{chunk.citation}</span>
              <span>{chunk.heading ? `${chunk.document_key} > ${chunk.heading}` : chunk.document_key}</span>
              {chunk.revision !== null && <Badge>revision {chunk.revision}</Badge>}
              {chunk.embedded && <Badge>vector</Badge>}
            </div>
            {/* A long chunk scrolls: a named region in the tab order, so the keyboard can scroll it too. */}
            <pre className="rag-text" tabIndex={0} role="region" aria-label={`Chunk ${index + 1} text`}>
              {chunk.text}
            </pre>
          </li>
        ))}
      </ol>
      {chunks.isFetchNextPageError && <ErrorMessage error={chunks.error} title="Could not load more chunks" />}
      {chunks.hasNextPage && (
        <div className="rag-more" data-testid="rag-chunks-more">
          <span className="muted" role="status">
            {total === undefined
              ? `Showing the first ${plural(shown.length, 'chunk')}`
              : `Showing ${formatInt(shown.length)} of ${plural(total, 'chunk')}`}
          </span>
          <Button
            busy={chunks.isFetchingNextPage}
            onClick={() => {
              setFocusAt(shown.length);
              void chunks.fetchNextPage();
            }}
          >
            {next > 0 ? `Show ${formatInt(next)} more` : 'Show more'}
          </Button>
        </div>
      )}
    </>
  );
}
