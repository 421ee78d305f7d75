import type { ApiKeyRecord } from '../../../../shared/gateway-api.js';
import { useUpdateKey } from '../../api/gateway-queries.js';
import { FormDialog } from '../../components/dialog.js';
import { showToast } from '../../components/toast.js';
import { useDraft } from '../../lib/use-draft.js';
import { KeyLimitFields } from './key-limit-fields.js';
import { keyLimitsForm, toKeyLimitsUpdate, type KeyLimitsForm } from './key-limits-form.js';
import { LimitMeters } from './limit-meters.js';
import { useUnpricedReachable } from './unpriced-budget-note.js';

/**
 * Changes a key's rate limits and the budgets it sets for its user and team. Only changed fields are
 * sent; an emptied field clears that limit. The gateway applies the change to the next request.
 */
export function EditKeyLimitsDialog({
  apiKey,
  onClose,
}: {
  readonly apiKey: ApiKeyRecord;
  readonly onClose: () => void;
}) {
  const draft = useDraft<KeyLimitsForm>(() => keyLimitsForm(apiKey));
  const update = useUpdateKey();
  const unpriced = useUnpricedReachable(apiKey.models);
  const name = apiKey.name ?? apiKey.key_prefix;
  const submit = (): void => {
    const result = toKeyLimitsUpdate(draft.form, apiKey);
    draft.setErrors(result.errors);
    if (!result.body) return;
    if (Object.keys(result.body).length === 0) return onClose();
    update.mutate(
      { id: apiKey.id, body: result.body },
      {
        onSuccess: () => {
          onClose();
          showToast(`Limits of ${name} changed`);
        },
      },
    );
  };
  return (
    <FormDialog
      wide
      testId="edit-key-limits-dialog"
      title={`Limits of “${name}”`}
      description="Empty means no limit of the key's own (the user's, team's and gateway's limits still apply). Changes apply to the next request."
      onClose={onClose}
      onSubmit={submit}
      busy={update.isPending}
      confirmLabel="Save limits"
      confirmTestId="confirm-key-limits"
      request={update}
      errorTitle="Could not change the limits"
    >
      <KeyLimitFields draft={draft} models={apiKey.models} />
      <div className="form-section form-span">Where its limits stand now</div>
      <div className="form-span">
        <LimitMeters limits={apiKey.limits} unpriced={unpriced} />
      </div>
    </FormDialog>
  );
}
