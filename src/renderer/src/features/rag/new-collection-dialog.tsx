import { COLLECTION_NAME_PATTERN, ragCollectionCreateSchema } from '../../../../shared/rag-api.js';
import { FormDialog } from '../../components/dialog.js';
import { Field, TextInput } from '../../components/field.js';
import { useDraft } from '../../lib/use-draft.js';
import { CollectionFields } from './collection-fields.js';
import {
  checkBody,
  EMPTY_COLLECTION_FORM,
  formAccess,
  formSource,
  splitList,
  type CollectionForm,
} from './collection-form.js';
import { useCollectionRefusal } from './collection-refusal.js';
import { useCreateCollection } from './rag-queries.js';

/** A new collection's fields besides its name, whose own check names the allowed characters. */
const CREATED_FIELDS = ragCollectionCreateSchema.omit({ name: true });

const TEST_ID = 'new-collection-dialog';

/** Creates a collection: name, description, who may read it, and optionally the store namespace and branch it follows. */
export function NewCollectionDialog({ onClose }: { readonly onClose: () => void }) {
  const create = useCreateCollection();
  const draft = useDraft<CollectionForm & { readonly name: string }>(() => ({ name: '', ...EMPTY_COLLECTION_FORM }));
  const refusal = useCollectionRefusal(create.error, create.variables, TEST_ID, splitList(draft.form.keys));
  const submit = (): void => {
    const { name } = draft.form;
    const source = formSource(draft.form);
    // The fields a collection shares with its edits are checked with the same schema the gateway uses.
    const checked = checkBody(CREATED_FIELDS, {
      ...(draft.form.description !== '' ? { description: draft.form.description } : {}),
      access: formAccess(draft.form),
      ...(source ? { source } : {}),
    });
    const nameError = COLLECTION_NAME_PATTERN.test(name)
      ? undefined
      : 'Name must be letters, digits, ".", "_" or "-" only';
    draft.setErrors({ ...checked.errors, ...(nameError ? { name: nameError } : {}) });
    if (!checked.body || nameError) return;
    create.mutate({ name, ...checked.body }, { onSuccess: onClose });
  };
  return (
    <FormDialog
      wide
      testId={TEST_ID}
      title="New collection"
      description="Keys read it with the rag:<name> scope; when you list teams, users or keys, a key must also be listed."
      onClose={onClose}
      onSubmit={submit}
      busy={create.isPending}
      confirmLabel="Create collection"
      confirmTestId="confirm-new-collection"
      request={create}
      error={refusal.shownError}
      errorTitle="Could not create the collection"
    >
      <Field label="Name" htmlFor="collection-name" error={draft.errors.name}>
        <TextInput
          id="collection-name"
          autoFocus
          value={draft.form.name}
          onChange={(event) => draft.set('name', event.target.value)}
        />
      </Field>
      <CollectionFields draft={{ ...draft, errors: { ...refusal.errors, ...draft.errors } }} idPrefix="collection" />
    </FormDialog>
  );
}
