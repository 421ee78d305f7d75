import { useState } from 'react';
import type { ApiKeyCreated } from '../../../../shared/gateway-api.js';
import { useIssueKey } from '../../api/gateway-queries.js';
import { useTeams } from '../../api/principals-queries.js';
import { FormDialog } from '../../components/dialog.js';
import { useDraft } from '../../lib/use-draft.js';
import { newOwnerName, SCOPE_FIELDS } from './key-access-form.js';
import { EXPIRY_IN_DAYS, KeyAccessFields } from './key-access-fields.js';
import { EMPTY_FORM, toIssueKeyRequest, type IssueKeyForm } from './issue-key-form.js';
import { KeyLimitFields } from './key-limit-fields.js';

const EXPIRY = [{ value: '', label: 'Never' }, ...EXPIRY_IN_DAYS];

/** Issues an API key: owner, scopes, model allow-list, limits, budgets and expiry. */
export function IssueKeyDialog({
  onClose,
  onIssued,
}: {
  readonly onClose: () => void;
  /** Gets the new key when the gateway answers, also when the dialog was closed meanwhile. */
  readonly onIssued: (key: ApiKeyCreated) => void;
}) {
  const draft = useDraft<IssueKeyForm>(() => EMPTY_FORM, SCOPE_FIELDS);
  const issue = useIssueKey(onIssued);
  const teams = useTeams();
  // A team named for the first time is created with no limits: issuing waits for an explicit yes to that name.
  const [confirmedTeam, setConfirmedTeam] = useState('');
  const newTeam = newOwnerName(
    draft.form.team,
    teams.data?.data.map((team) => team.id),
  );
  const teamUnknownYet = teams.isPending && draft.form.team.trim() !== '';
  const submit = (): void => {
    const result = toIssueKeyRequest(draft.form);
    draft.setErrors(result.errors);
    if (result.body) issue.mutate(result.body);
  };
  return (
    <FormDialog
      wide
      testId="issue-key-dialog"
      title="Issue an API key"
      description="The key works with any OpenAI or Anthropic client pointed at this gateway. Its secret is shown once."
      onClose={onClose}
      onSubmit={submit}
      busy={issue.isPending}
      disabled={newTeam !== undefined && confirmedTeam !== newTeam}
      waiting={teamUnknownYet ? 'Issuing once the teams are read…' : undefined}
      confirmLabel="Issue key"
      confirmTestId="confirm-issue-key"
      request={issue}
      errorTitle="Could not issue the key"
    >
      <KeyAccessFields
        draft={draft}
        expiry={EXPIRY}
        owners="created"
        teamCreation={{ confirmed: confirmedTeam, confirm: setConfirmedTeam }}
      />
      <KeyLimitFields draft={draft} models={draft.form.models.length ? draft.form.models : null} />
    </FormDialog>
  );
}
