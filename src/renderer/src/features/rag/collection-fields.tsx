import { useApiKeys } from '../../api/gateway-queries.js';
import { Button } from '../../components/button.js';
import { Field, TextArea, TextInput } from '../../components/field.js';
import { CloseIcon } from '../../components/icons.js';
import { KeyPicker, keyLabel } from '../gateway/key-picker.js';
import { COLLECTION_LABELS, splitList, type CollectionForm, type CollectionFormErrors } from './collection-form.js';

/** A form holding a collection's fields (perhaps among others, such as a new collection's name). */
interface CollectionDraft {
  readonly form: CollectionForm;
  readonly errors: CollectionFormErrors;
  // A method, so a draft of a larger form fits too.
  set<K extends keyof CollectionForm>(field: K, value: CollectionForm[K]): void;
}

const HINTS: Partial<Record<keyof CollectionForm, string>> = {
  teams: 'Comma-separated; empty lists: the scope alone decides.',
  keys: 'Keys that may read it, picked by name; their ids are stored.',
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
      <Field label={COLLECTION_LABELS.keys} htmlFor={`${idPrefix}-keys`} hint={HINTS.keys} error={errors.keys}>
        <KeyReaders id={`${idPrefix}-keys`} value={form.keys} onChange={(keys) => set('keys', keys)} />
      </Field>
      {text('namespace', 'Not followed')}
      {text('branch')}
    </>
  );
}

/** The reader keys (ids, comma separated as the form holds them) as named chips, and a picker adding one. */
function KeyReaders({
  id,
  value,
  onChange,
}: {
  readonly id: string;
  readonly value: string;
  readonly onChange: (value: string) => void;
}) {
  const keys = useApiKeys(false).data?.data ?? [];
  const ids = splitList(value);
  return (
    <>
      {ids.length > 0 && (
        <span className="chip-row" data-testid="collection-reader-keys">
          {ids.map((keyId) => (
            <span key={keyId} className="chip-check" title={keyId}>
              <span>{keyLabel(keys, keyId)}</span>
              <Button
                size="sm"
                variant="ghost"
                icon={<CloseIcon />}
                aria-label={`Remove reader ${keyLabel(keys, keyId)}`}
                onClick={() => onChange(ids.filter((other) => other !== keyId).join(', '))}
              />
            </span>
          ))}
        </span>
      )}
      <KeyPicker
        id={id}
        value=""
        emptyLabel={ids.length > 0 ? 'Add another key…' : 'Add a key…'}
        exclude={ids}
        onPick={(keyId) => keyId && onChange([...ids, keyId].join(', '))}
      />
    </>
  );
}
