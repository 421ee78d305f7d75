import type { RagCollection } from '../../../../shared/rag-api.js';
import { FormDialog } from '../../components/dialog.js';
import { showToast } from '../../components/toast.js';
import { useDraft } from '../../lib/use-draft.js';
import { useUnsavedChanges } from '../../lib/unsaved-changes.js';
import { CollectionFields } from './collection-fields.js';
import { collectionForm, formSource, splitList, toCollectionUpdate, type CollectionForm } from './collection-form.js';
import { useCollectionRefusal } from './collection-refusal.js';
import { useUpdateCollection } from './rag-queries.js';
import { describeSourceChange } from './source-change.js';

const TEST_ID = 'edit-collection-dialog';

/** Holds a navigation away (a link, Back, a reload) while the draft differs from what is stored. */
function UnsavedCollection({ name }: { readonly name: string }) {
  useUnsavedChanges(`the collection ${name}`);
  return null;
}

/**
 * Changes a collection's description, readers and store source in place. Only changed fields are
 * sent; what a new source (or none) does to the documents is said before it is saved.
 */
export function EditCollectionDialog({
  collection,
  onClose,
}: {
  readonly collection: RagCollection;
  readonly onClose: () => void;
}) {
  const draft = useDraft<CollectionForm>(() => collectionForm(collection));
  const update = useUpdateCollection();
  const refusal = useCollectionRefusal(update.error, update.variables?.body, TEST_ID, splitList(draft.form.keys));
  const checked = toCollectionUpdate(draft.form, collection);
  const dirty = JSON.stringify(draft.form) !== JSON.stringify(collectionForm(collection));
  const sourceChange = describeSourceChange(collection, formSource(draft.form));
  const submit = (): void => {
    draft.setErrors(checked.errors);
    if (!checked.body) return;
    if (Object.keys(checked.body).length === 0) return onClose();
    update.mutate(
      { name: collection.name, body: checked.body },
      {
        onSuccess: (saved) => {
          onClose();
          showToast(`Collection ${saved.name} changed`);
        },
      },
    );
  };
  return (
    <FormDialog
      wide
      testId={TEST_ID}
      title={`Edit collection “${collection.name}”`}
      description="Keys read it with the rag:<name> scope; when you list teams, users or keys, a key must also be listed. Changes apply to the next request."
      onClose={onClose}
      onSubmit={submit}
      busy={update.isPending}
      confirmLabel="Save collection"
      confirmTestId="confirm-edit-collection"
      request={update}
      error={refusal.shownError}
      errorTitle="Could not change the collection"
      after={
        sourceChange && (
          <p className="panel-text" role="note" aria-label="What changing the source does" data-testid="source-change">
            {sourceChange}
          </p>
        )
      }
    >
      {dirty && <UnsavedCollection name={collection.name} />}
      <CollectionFields
        draft={{ ...draft, errors: { ...refusal.errors, ...draft.errors } }}
        idPrefix="edit-collection"
      />
    </FormDialog>
  );
}
