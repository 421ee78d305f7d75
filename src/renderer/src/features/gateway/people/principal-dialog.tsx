import type { TeamRecord, UserRecord } from '../../../../../shared/principals-api.js';
import { useCreateTeam, useCreateUser, useUpdateTeam, useUpdateUser } from '../../../api/principals-queries.js';
import { FormDialog } from '../../../components/dialog.js';
import { DraftTextField, Field, Select } from '../../../components/field.js';
import { showToast } from '../../../components/toast.js';
import { useDraft } from '../../../lib/use-draft.js';
import { LimitMeters } from '../limit-meters.js';
import { UnpricedBudgetNote, useUnpricedReachable } from '../unpriced-budget-note.js';
import {
  PRINCIPAL_LABELS,
  principalForm,
  toTeamCreate,
  toTeamUpdate,
  toUserCreate,
  takenIdProblem,
  toUserUpdate,
  type PrincipalForm,
} from './principal-form.js';

/** What the dialog creates or edits. */
export type PrincipalTarget =
  { readonly kind: 'team'; readonly record?: TeamRecord } | { readonly kind: 'user'; readonly record?: UserRecord };

const nothingChanged = (body: object): boolean => Object.values(body).every((value) => value === undefined);

/**
 * Creates a team or user, or edits one's details and limits. Fields are checked with the shared
 * schemas before sending; the gateway's own refusal is shown as it words it. Changes apply to the
 * next request.
 */
export function PrincipalDialog({
  target,
  teams,
  takenIds,
  onClose,
}: {
  readonly target: PrincipalTarget;
  /** Team ids a user can join. */
  readonly teams: readonly string[];
  /** The ids of the teams (or users) listed, which a new one cannot have; undefined while not loaded. */
  readonly takenIds: readonly string[] | undefined;
  readonly onClose: () => void;
}) {
  const typed = useDraft<PrincipalForm>(() => principalForm(target.record));
  const editing = target.record !== undefined;
  // Checked as typed against the list on screen, as New branch checks a branch's name.
  const taken = editing ? undefined : takenIdProblem(target.kind, typed.form.id, takenIds);
  const draft = taken ? { ...typed, errors: { ...typed.errors, id: typed.errors.id ?? taken } } : typed;
  const { form, errors } = draft;
  const createTeam = useCreateTeam();
  const updateTeam = useUpdateTeam();
  const createUser = useCreateUser();
  const updateUser = useUpdateUser();
  // Users and teams have no model list of their own: every allowed model is within their reach.
  const unpriced = useUnpricedReachable(null);
  const mutation = target.kind === 'team' ? (editing ? updateTeam : createTeam) : editing ? updateUser : createUser;
  const done = (id: string): void => {
    onClose();
    showToast(editing ? `Saved ${target.kind} ${id}` : `Created ${target.kind} ${id}`);
  };

  const submit = (): void => {
    const options = { onSuccess: (record: { id: string }) => done(record.id) };
    if (target.kind === 'team' && target.record) {
      const result = toTeamUpdate(form, target.record);
      draft.setErrors(result.errors);
      if (result.body && nothingChanged(result.body)) onClose();
      else if (result.body) updateTeam.mutate({ id: target.record.id, body: result.body }, options);
    } else if (target.kind === 'team') {
      const result = toTeamCreate(form);
      draft.setErrors(result.errors);
      if (result.body) createTeam.mutate(result.body, options);
    } else if (target.record) {
      const result = toUserUpdate(form, target.record);
      draft.setErrors(result.errors);
      if (result.body && nothingChanged(result.body)) onClose();
      else if (result.body) updateUser.mutate({ id: target.record.id, body: result.body }, options);
    } else {
      const result = toUserCreate(form);
      draft.setErrors(result.errors);
      if (result.body) createUser.mutate(result.body, options);
    }
  };

  const input = (
    field: keyof PrincipalForm,
    props: { hint?: string; placeholder?: string; inputMode?: 'numeric' | 'decimal' } = {},
  ) => (
    <DraftTextField
      draft={draft}
      field={field}
      idPrefix="principal"
      label={PRINCIPAL_LABELS[field]}
      autoComplete="off"
      spellCheck={false}
      {...props}
    />
  );
  const noun = target.kind === 'team' ? 'team' : 'user';
  return (
    <FormDialog
      wide
      testId="principal-dialog"
      title={editing ? `Edit ${noun} ${target.record!.id}` : `New ${noun}`}
      description={
        target.kind === 'team'
          ? "A team's limits are shared by all its users and keys. Empty: no limit of its own (the gateway's defaults apply)."
          : "A user's limits are shared by all their keys, within their team's. Empty: no limit of their own."
      }
      onClose={onClose}
      onSubmit={submit}
      busy={mutation.isPending}
      disabled={taken !== undefined}
      confirmLabel={editing ? 'Save' : `Create ${noun}`}
      confirmTestId="confirm-principal"
      request={mutation}
      errorTitle={editing ? `Could not save the ${noun}` : `Could not create the ${noun}`}
    >
      {!editing &&
        input('id', {
          hint: target.kind === 'team' ? 'As keys name it, e.g. platform.' : 'As keys name it, e.g. alice@example.com.',
          placeholder: target.kind === 'team' ? 'platform' : 'alice@example.com',
        })}
      {input('name', { placeholder: 'Optional' })}
      {target.kind === 'user' && (
        <>
          {input('email', { placeholder: 'Optional' })}
          <Field label={PRINCIPAL_LABELS.team} htmlFor="principal-team" error={errors.team}>
            <Select id="principal-team" value={form.team} onChange={(event) => draft.set('team', event.target.value)}>
              <option value="">No team</option>
              {[...new Set([...teams, form.team].filter(Boolean))].map((team) => (
                <option key={team} value={team}>
                  {team}
                </option>
              ))}
            </Select>
          </Field>
        </>
      )}
      <div className="form-section form-span">Rate limits (refilled over a minute)</div>
      {input('rpm', { placeholder: 'No limit', inputMode: 'numeric' })}
      {input('tpm', { placeholder: 'No limit', inputMode: 'numeric' })}
      <div className="form-section form-span">
        Concurrency (shared by all {target.kind === 'team' ? 'its' : 'their'} keys)
      </div>
      {input('parallel', {
        placeholder: 'No limit',
        inputMode: 'numeric',
        hint: `A stream counts until it ends. Empty: the gateway's default for ${noun}s, if any.`,
      })}
      <div className="form-section form-span">Budgets (per UTC minute, day and calendar month)</div>
      {input('tpmBudget', { placeholder: 'No budget', inputMode: 'numeric' })}
      {input('tpdBudget', { placeholder: 'No budget', inputMode: 'numeric' })}
      {input('usd', {
        placeholder: 'No budget',
        inputMode: 'decimal',
        hint: 'Counted where the configuration prices the model.',
      })}
      {input('usdMonthly', {
        placeholder: 'No budget',
        inputMode: 'decimal',
        hint: 'Resets at 00:00 UTC on the 1st of each month.',
      })}
      <UnpricedBudgetNote models={null} notCounting="the spend budgets do not count" />
      {target.record && (
        <>
          <div className="form-section form-span">Where its limits stand now</div>
          <div className="form-span">
            <LimitMeters limits={target.record.limits} showOwner={false} unpriced={unpriced} />
          </div>
        </>
      )}
    </FormDialog>
  );
}
