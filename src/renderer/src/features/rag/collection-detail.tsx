import { useState } from 'react';
import type { RagCollection } from '../../../../shared/rag-api.js';
import { Button } from '../../components/button.js';
import { PencilIcon } from '../../components/icons.js';
import { AddDocumentForm } from './add-document-form.js';
import { ChunkList } from './chunk-list.js';
import { DocumentTable } from './document-table.js';
import { EditCollectionDialog } from './edit-collection-dialog.js';
import { isSyncing, useDocumentsFollowCollection, useRagDocuments } from './rag-queries.js';
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

/** Where a collection's documents come from, in words. */
function describeSource(collection: RagCollection): string {
  if (!collection.source) return 'Documents are added here.';
  const source = `${collection.source.namespace}@${collection.source.branch}`;
  return isSyncing(collection)
    ? `Follows ${source}, syncing from it now.`
    : `Follows ${source}, indexed at revision ${collection.source_revision}.`;
}

/**
 * One collection: its description, readers and source (edited in place), its documents and their
 * chunks, ingestion (unless the store owns it) and the key's-eye search.
 */
export function CollectionDetail({ collection }: { readonly collection: RagCollection }) {
  const documents = useRagDocuments(collection.name);
  useDocumentsFollowCollection(collection);
  const [document, setDocument] = useState<string>();
  const [editing, setEditing] = useState(false);
  return (
    <div className="rag-stack" data-testid="collection-detail">
      <section className="panel">
        <div className="panel-header">
          <h2 className="panel-title">{collection.name}</h2>
          <Button size="sm" icon={<PencilIcon />} onClick={() => setEditing(true)} data-testid="edit-collection">
            Edit collection
          </Button>
        </div>
        {collection.description !== '' && (
          <p className="panel-text" data-testid="collection-description">
            {collection.description}
          </p>
        )}
        <p className="panel-text" data-testid="collection-summary">
          Read by {describeAccess(collection)}. {describeSource(collection)}
        </p>
        <SourceWarning collection={collection} />
        <SkippedDocuments collection={collection} />
        <DocumentTable documents={documents} total={collection.documents} onShowChunks={setDocument} />
        {!collection.source && <AddDocumentForm collection={collection.name} />}
      </section>
      <SearchPanel collection={collection.name} />
      <section className="panel">
        <h2 className="panel-title">Chunks{document ? ' of the selected document' : ''}</h2>
        <ChunkList
          key={document ?? ''}
          collection={collection.name}
          document={document}
          total={
            document
              ? documents.data?.pages.flatMap((page) => page.data).find((doc) => doc.id === document)?.chunks
              : collection.chunks
          }
        />
      </section>
      {editing && <EditCollectionDialog collection={collection} onClose={() => setEditing(false)} />}
    </div>
  );
}
