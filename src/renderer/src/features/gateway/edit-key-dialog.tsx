import type { ApiKeyRecord } from '../../../../shared/gateway-api.js';
import { useUpdateKey } from '../../api/gateway-queries.js';
import { useTeams, useUsers } from '../../api/principals-queries.js';
import { FormDialog } from '../../components/dialog.js';
import { showToast } from '../../components/toast.js';
import { fullTime } from '../../lib/format.js';
import { useDraft } from '../../lib/use-draft.js';
import { editKeyForm, NO_EXPIRY, toKeyAccessUpdate } from './edit-key-form.js';
import { newOwnerName, SCOPE_FIELDS, type KeyAccessForm } from './key-access-form.js';
import { EXPIRY_IN_DAYS, KeyAccessFields } from './key-access-fields.js';

/**
 * Changes a key's name, owner, expiry, scopes and model allow-list without issuing a new secret (as
 * LiteLLM's key update does). Only changed fields are sent; the gateway applies them to the next request.
 */
export function EditKeyDialog({ apiKey, onClose }: { readonly apiKey: ApiKeyRecord; readonly onClose: () => void }) {
  const draft = useDraft<KeyAccessForm>(() => editKeyForm(apiKey), SCOPE_FIELDS);
  const update = useUpdateKey();
  const teams = useTeams();
  const users = useUsers();
  // A key moves only to an existing user or team: a name the field already calls unknown is not sent to be refused.
  const newTeam = newOwnerName(
    draft.form.team,
    teams.data?.data.map((team) => team.id),
  );
  const newUser = newOwnerName(
    draft.form.user,
    users.data?.data.map((user) => user.id),
  );
  const movesToUnknown =
    (newTeam !== undefined && newTeam !== apiKey.team) || (newUser !== undefined && newUser !== apiKey.user);
  const name = apiKey.name ?? apiKey.key_prefix;
  const expiry = [
    { value: '', label: apiKey.expires_at ? `Keep: ${fullTime(apiKey.expires_at)}` : 'Keep: never' },
    ...(apiKey.expires_at ? [{ value: NO_EXPIRY, label: 'Never' }] : []),
    ...EXPIRY_IN_DAYS,
  ];
  const submit = (): void => {
    const result = toKeyAccessUpdate(draft.form, apiKey, new Date());
    draft.setErrors(result.errors);
    if (!result.body) return;
    if (Object.keys(result.body).length === 0) return onClose();
    update.mutate(
      { id: apiKey.id, body: result.body },
      {
        onSuccess: (saved) => {
          onClose();
          showToast(`Key ${saved.name ?? saved.key_prefix} changed`);
        },
      },
    );
  };
  return (
    <FormDialog
      wide
      testId="edit-key-dialog"
      title={`Edit “${name}”`}
      description="The key's secret stays the same. Changes apply to its next request."
      onClose={onClose}
      onSubmit={submit}
      busy={update.isPending}
      disabled={movesToUnknown}
      confirmLabel="Save key"
      confirmTestId="confirm-edit-key"
      request={update}
      errorTitle="Could not change the key"
    >
      <KeyAccessFields draft={draft} expiry={expiry} owners="existing" />
    </FormDialog>
  );
}
