import { Field, TextArea, TextInput } from '../../components/field.js';
import { COLLECTION_LABELS, type CollectionForm, type CollectionFormErrors } from './collection-form.js';

/** A form holding a collection's fields (perhaps among others, such as a new collection's name). */
interface CollectionDraft {
  readonly form: CollectionForm;
  readonly errors: CollectionFormErrors;
  // A method, so a draft of a larger form fits too.
  set<K extends keyof CollectionForm>(field: K, value: CollectionForm[K]): void;
}

const HINTS: Partial<Record<keyof CollectionForm, string>> = {
  teams: 'Comma-separated; empty lists: the scope alone decides.',
  keys: 'Comma-separated key ids (key_…), not names.',
  namespace: 'Follow this namespace: re-indexed on every revision. Empty: not followed.',
};

/**
 * A collection's description, readers (teams, users, key ids) and store source, labelled and hinted
 * alike in the dialog that creates a collection and the one that edits it.
 */
export function CollectionFields({ draft, idPrefix }: { readonly draft: CollectionDraft; readonly idPrefix: string }) {
  const { form, errors, set } = draft;
  const text = (field: Exclude<keyof CollectionForm, 'description'>, placeholder?: string) => (
    <Field label={COLLECTION_LABELS[field]} htmlFor={`${idPrefix}-${field}`} hint={HINTS[field]} error={errors[field]}>
      <TextInput
        id={`${idPrefix}-${field}`}
        placeholder={placeholder}
        value={form[field]}
        onChange={(event) => set(field, event.target.value)}
      />
    </Field>
  );
  return (
    <>
      <Field label={COLLECTION_LABELS.description} htmlFor={`${idPrefix}-description`} error={errors.description}>
        <TextArea
          id={`${idPrefix}-description`}
          rows={2}
          value={form.description}
          onChange={(event) => set('description', event.target.value)}
        />
      </Field>
      {text('teams')}
      {text('users')}
      {text('keys')}
      {text('namespace', 'Not followed')}
      {text('branch')}
    </>
  );
}
