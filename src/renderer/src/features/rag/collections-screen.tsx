import { useRef, useState } from 'react';
import { updateSearch, useSearchParams } from '../../app/router.js';
import type { RagCollection } from '../../../../shared/rag-api.js';
import { Button } from '../../components/button.js';
import { DataTable, type Column } from '../../components/data-table.js';
import { EmptyState } from '../../components/feedback.js';
import { FilesIcon, PlusIcon, TrashIcon } from '../../components/icons.js';
import { PageBody, PageHeader } from '../../components/page.js';
import { QueryView } from '../../components/query-view.js';
import { CollectionDetail, describeAccess } from './collection-detail.js';
import { DeleteCollectionDialog } from './delete-collection-dialog.js';
import { NewCollectionDialog } from './new-collection-dialog.js';
import { useCollections } from './rag-queries.js';
import './rag.css';

/** RAG collections: who may read them, their documents and chunks, and what a key would retrieve. */
export function CollectionsScreen() {
  const collections = useCollections();
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<RagCollection>();
  // The open collection is in the address (`collection=`): a reload or a link opens it again.
  const open = useSearchParams().get('collection') ?? undefined;
  const setOpen = (name: string): void => updateSearch({ collection: name });
  const newCollection = useRef<HTMLButtonElement>(null);
  const columns: Column<RagCollection>[] = [
    { header: 'Collection', cell: (c) => <span className="cell-strong">{c.name}</span> },
    { header: 'Readers', cell: (c) => <span className="muted">{describeAccess(c)}</span> },
    {
      header: 'Source',
      cell: (c) =>
        c.source ? <span className="mono">{`${c.source.namespace}@${c.source.branch}`}</span> : 'Added here',
    },
    { header: 'Documents', align: 'right', cell: (c) => c.documents },
    { header: 'Chunks', align: 'right', cell: (c) => c.chunks },
    {
      header: '',
      align: 'right',
      className: 'cell-actions',
      cell: (c) => (
        <span className="chip-row">
          {/* Named with the collection: a column of identical "Delete" buttons says nothing out of context. */}
          <Button size="sm" variant="ghost" aria-label={`Open ${c.name}`} onClick={() => setOpen(c.name)}>
            Open
          </Button>
          <Button
            size="sm"
            variant="ghost"
            icon={<TrashIcon />}
            aria-label={`Delete ${c.name}`}
            onClick={() => setDeleting(c)}
          >
            Delete
          </Button>
        </span>
      ),
    },
  ];
  return (
    <>
      <PageHeader
        title="Collections"
        subtitle="Documents the gateway retrieves from (RAG). A key reads a collection with its rag:<name> scope and, where readers are listed, only when it is listed."
        actions={
          <Button
            ref={newCollection}
            variant="primary"
            icon={<PlusIcon />}
            onClick={() => setCreating(true)}
            data-testid="new-collection"
          >
            New collection
          </Button>
        }
      />
      <PageBody>
        <QueryView
          query={collections}
          errorTitle="Could not load the collections"
          empty={(data) =>
            data.data.length === 0 && (
              <EmptyState icon={<FilesIcon size={28} />} title="No collections yet">
                Create a collection, add text or Markdown (or let it follow a store namespace), and requests that name
                it get the best-matching chunks with citations.
              </EmptyState>
            )
          }
        >
          {(data) => {
            const selected = data.data.find((c) => c.name === open);
            return (
              <div className="rag-stack">
                <DataTable
                  label="Collections"
                  testId="collections-table"
                  autoFocus
                  rows={data.data}
                  columns={columns}
                  rowKey={(c) => c.name}
                  onOpen={(c) => setOpen(c.name)}
                />
                {selected && <CollectionDetail key={selected.name} collection={selected} />}
              </div>
            );
          }}
        </QueryView>
      </PageBody>
      {creating && <NewCollectionDialog onClose={() => setCreating(false)} />}
      {deleting && (
        <DeleteCollectionDialog
          collection={deleting}
          onClose={() => setDeleting(undefined)}
          // With its row gone the table takes focus; with the last collection gone there is no table.
          returnFocus={() => newCollection.current}
        />
      )}
    </>
  );
}
