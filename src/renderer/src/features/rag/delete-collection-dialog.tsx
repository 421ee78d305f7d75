import type { RagCollection } from '../../../../shared/rag-api.js';
import { ConfirmFooter, Dialog } from '../../components/dialog.js';
import { ErrorMessage } from '../../components/feedback.js';
import { showToast } from '../../components/toast.js';
import { plural } from '../../lib/format.js';
import { useDeleteCollection } from './rag-queries.js';

/** What deleting a collection takes with it, in words: its documents and chunks, and where they came from. */
function whatGoes(collection: RagCollection): string {
  const held = `${plural(collection.documents, 'document')} and ${plural(collection.chunks, 'chunk')}`;
  const after = collection.source
    ? `They came from ${collection.source.namespace}@${collection.source.branch} in the store, which keeps its documents: a new collection following it gets them back.`
    : 'They were added here, and nothing else holds them.';
  return `Its ${held} are deleted for good, and keys with rag:${collection.name} retrieve nothing from it. ${after}`;
}

/** Asks before deleting a collection (opening on Cancel: it cannot be undone), then says it is done. */
export function DeleteCollectionDialog({
  collection,
  onClose,
  returnFocus,
}: {
  readonly collection: RagCollection;
  readonly onClose: () => void;
  /** Where focus goes when the row's button and the table are both gone (the last collection deleted). */
  readonly returnFocus?: () => HTMLElement | null;
}) {
  const remove = useDeleteCollection();
  return (
    <Dialog
      testId="delete-collection-dialog"
      title={`Delete collection “${collection.name}”?`}
      description={whatGoes(collection)}
      onClose={onClose}
      returnFocus={returnFocus}
      footer={
        <ConfirmFooter
          onCancel={onClose}
          onConfirm={() =>
            remove.mutate(collection.name, {
              onSuccess: () => {
                onClose();
                showToast(`Deleted collection ${collection.name}`);
              },
            })
          }
          variant="danger"
          busy={remove.isPending}
          testId="confirm-delete-collection"
        >
          Delete collection
        </ConfirmFooter>
      }
    >
      {remove.error && <ErrorMessage error={remove.error} title="Could not delete the collection" />}
    </Dialog>
  );
}
