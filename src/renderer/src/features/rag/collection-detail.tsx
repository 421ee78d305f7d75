import { useState } from 'react';
import type { RagCollection, RagDocument } from '../../../../shared/rag-api.js';
import { Button } from '../../components/button.js';
import { DataTable, type Column } from '../../components/data-table.js';
import { QueryView } from '../../components/query-view.js';
import { AddDocumentForm } from './add-document-form.js';
import { ChunkList } from './chunk-list.js';
import { useRagDocuments } from './rag-queries.js';
import { SearchPanel } from './search-panel.js';
import { SkippedDocuments } from './skipped-documents.js';
import { SourceWarning } from './source-warning.js';

/** Who may read a collection, in words. */
export function describeAccess(collection: RagCollection): string {
  const { teams, users, keys } = collection.access;
  const parts = [
    teams.length > 0 ? `teams ${teams.join(', ')}` : '',
    users.length > 0 ? `users ${users.join(', ')}` : '',
    keys.length > 0 ? `${keys.length} key${keys.length === 1 ? '' : 's'}` : '',
  ].filter((part) => part !== '');
  return parts.length === 0
    ? `every key with rag:${collection.name}`
    : `rag:${collection.name} and ${parts.join(' or ')}`;
}

/** One collection: its documents and their chunks, ingestion (unless the store owns it) and the key's-eye search. */
export function CollectionDetail({ collection }: { readonly collection: RagCollection }) {
  const documents = useRagDocuments(collection.name);
  const [document, setDocument] = useState<string>();
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
        <Button size="sm" variant="ghost" onClick={() => setDocument(doc.id)}>
          Show chunks
        </Button>
      ),
    },
  ];
  return (
    <div className="rag-stack" data-testid="collection-detail">
      <section className="panel">
        <h2 className="panel-title">{collection.name}</h2>
        <p className="panel-text">
          Read by {describeAccess(collection)}.{' '}
          {collection.source
            ? `Follows ${collection.source.namespace}@${collection.source.branch}, indexed at revision ${collection.source_revision}.`
            : 'Documents are added here.'}
        </p>
        <SourceWarning collection={collection} />
        <SkippedDocuments collection={collection} />
        <QueryView query={documents} errorTitle="Could not load the documents">
          {(data) => (
            <DataTable
              label="Documents"
              testId="rag-documents"
              rows={data.data}
              columns={columns}
              rowKey={(doc) => doc.id}
              onOpen={(doc) => setDocument(doc.id)}
            />
          )}
        </QueryView>
        {!collection.source && <AddDocumentForm collection={collection.name} />}
      </section>
      <SearchPanel collection={collection.name} />
      <section className="panel">
        <h2 className="panel-title">Chunks{document ? ' of the selected document' : ''}</h2>
        <ChunkList
          key={document ?? ''}
          collection={collection.name}
          document={document}
          total={document ? documents.data?.data.find((doc) => doc.id === document)?.chunks : collection.chunks}
        />
      </section>
    </div>
  );
}
