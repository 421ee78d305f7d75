import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useState } from 'react';
import type { RagDocument, RagDocumentList } from '../../../../shared/rag-api.js';
import { Button } from '../../components/button.js';
import { DataTable, type Column } from '../../components/data-table.js';
import { ErrorMessage, Loading } from '../../components/feedback.js';
import { formatInt, plural } from '../../lib/format.js';
import { DOCUMENT_PAGE_SIZE } from './rag-queries.js';

/**
 * A collection's documents by key, a page at a time: a collection may hold thousands, so more are read
 * only when asked for. `total` is the collection's count of documents; `onShowChunks` opens one's chunks.
 */
export function DocumentTable({
  documents,
  total,
  onShowChunks,
}: {
  readonly documents: UseInfiniteQueryResult<InfiniteData<RagDocumentList>>;
  readonly total: number;
  readonly onShowChunks: (id: string) => void;
}) {
  const statusId = useId();
  const shown = useMemo(() => documents.data?.pages.flatMap((page) => page.data) ?? [], [documents.data]);
  // Where the highlight goes once the next page is in: its first document, so reading goes on from there
  // (the button that asked is gone when that page was the last).
  const [focusAt, setFocusAt] = useState<number>();
  const [focusRow, setFocusRow] = useState<{ readonly key: string }>();
  useEffect(() => {
    if (focusAt === undefined || shown.length <= focusAt) return;
    setFocusRow({ key: shown[focusAt]!.id });
    setFocusAt(undefined);
  }, [focusAt, shown]);

  if (documents.isPending) return <Loading label="Loading documents…" />;
  if (documents.isError && shown.length === 0)
    return (
      <ErrorMessage
        error={documents.error}
        title="Could not load the documents"
        onRetry={() => void documents.refetch()}
        retrying={documents.isFetching}
      />
    );
  const columns: Column<RagDocument>[] = [
    { header: 'Document', cell: (doc) => <span className="mono">{doc.key}</span> },
    { header: 'Format', cell: (doc) => doc.content_type },
    { header: 'Characters', align: 'right', cell: (doc) => doc.chars.toLocaleString() },
    { header: 'Chunks', align: 'right', cell: (doc) => doc.chunks },
    { header: 'Revision', align: 'right', cell: (doc) => doc.revision ?? '—' },
    {
      header: '',
      align: 'right',
      className: 'cell-actions',
      cell: (doc) => (
        <Button size="sm" variant="ghost" onClick={() => onShowChunks(doc.id)}>
          Show chunks
        </Button>
      ),
    },
  ];
  // The count may lag the pages read (a document added since): never "Show -3 more".
  const next = Math.min(DOCUMENT_PAGE_SIZE, Math.max(total - shown.length, 0));
  return (
    <div>
      <DataTable
        label="Documents"
        testId="rag-documents"
        rows={shown}
        columns={columns}
        rowKey={(doc) => doc.id}
        onOpen={(doc) => onShowChunks(doc.id)}
        focusRow={focusRow}
      />
      {documents.isFetchNextPageError && <ErrorMessage error={documents.error} title="Could not load more documents" />}
      {documents.hasNextPage && (
        <div className="rag-more" data-testid="rag-documents-more">
          <span className="muted" role="status" id={statusId}>
            Showing {formatInt(shown.length)} of {plural(Math.max(total, shown.length), 'document')}
          </span>
          <Button
            aria-describedby={statusId}
            busy={documents.isFetchingNextPage}
            onClick={() => {
              setFocusAt(shown.length);
              void documents.fetchNextPage();
            }}
          >
            {next > 0 ? `Show ${formatInt(next)} more` : 'Show more'}
          </Button>
        </div>
      )}
    </div>
  );
}
