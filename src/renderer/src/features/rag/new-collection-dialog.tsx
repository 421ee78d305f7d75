import { useState } from 'react';
import { COLLECTION_NAME_PATTERN, type RagCollectionCreate } from '../../../../shared/rag-api.js';
import { FormDialog } from '../../components/dialog.js';
import { Field, TextInput } from '../../components/field.js';
import { useCreateCollection } from './rag-queries.js';

/** Comma-separated text to a list (empty entries dropped). */
export function splitList(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** Creates a collection: name, who may read it, and optionally the store namespace and branch it follows. */
export function NewCollectionDialog({ onClose }: { readonly onClose: () => void }) {
  const create = useCreateCollection();
  const [name, setName] = useState('');
  const [teams, setTeams] = useState('');
  const [users, setUsers] = useState('');
  const [keys, setKeys] = useState('');
  const [namespace, setNamespace] = useState('');
  const [branch, setBranch] = useState('main');
  const [touched, setTouched] = useState(false);
  const nameError =
    touched && !COLLECTION_NAME_PATTERN.test(name) ? 'Name must be letters, digits, ".", "_" or "-" only' : undefined;
  const submit = (): void => {
    setTouched(true);
    if (!COLLECTION_NAME_PATTERN.test(name)) return;
    const body: RagCollectionCreate = {
      name,
      access: { teams: splitList(teams), users: splitList(users), keys: splitList(keys) },
      ...(namespace.trim() !== '' ? { source: { namespace: namespace.trim(), branch: branch.trim() || 'main' } } : {}),
    };
    create.mutate(body, { onSuccess: onClose });
  };
  return (
    <FormDialog
      wide
      testId="new-collection-dialog"
      title="New collection"
      description="Keys read it with the rag:<name> scope; when you list teams, users or keys, a key must also be listed."
      onClose={onClose}
      onSubmit={submit}
      busy={create.isPending}
      confirmLabel="Create collection"
      confirmTestId="confirm-new-collection"
      request={create}
      errorTitle="Could not create the collection"
    >
      <Field label="Name" htmlFor="collection-name" error={nameError}>
        <TextInput id="collection-name" autoFocus value={name} onChange={(event) => setName(event.target.value)} />
      </Field>
      <Field label="Teams" htmlFor="collection-teams" hint="Comma-separated; empty lists: the scope alone decides.">
        <TextInput id="collection-teams" value={teams} onChange={(event) => setTeams(event.target.value)} />
      </Field>
      <Field label="Users" htmlFor="collection-users">
        <TextInput id="collection-users" value={users} onChange={(event) => setUsers(event.target.value)} />
      </Field>
      <Field label="Key ids" htmlFor="collection-keys">
        <TextInput id="collection-keys" value={keys} onChange={(event) => setKeys(event.target.value)} />
      </Field>
      <Field
        label="Store namespace"
        htmlFor="collection-namespace"
        hint="Follow this namespace: re-indexed on every revision."
      >
        <TextInput
          id="collection-namespace"
          placeholder="Not followed"
          value={namespace}
          onChange={(event) => setNamespace(event.target.value)}
        />
      </Field>
      <Field label="Store branch" htmlFor="collection-branch">
        <TextInput id="collection-branch" value={branch} onChange={(event) => setBranch(event.target.value)} />
      </Field>
    </FormDialog>
  );
}
