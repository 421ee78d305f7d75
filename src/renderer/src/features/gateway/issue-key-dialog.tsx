import { useId } from 'react';
import type { ApiKeyCreated } from '../../../../shared/gateway-api.js';
import { useIssueKey, useModelSettings } from '../../api/gateway-queries.js';
import { FormDialog } from '../../components/dialog.js';
import { Field, Select, TextInput } from '../../components/field.js';
import { useDraft } from '../../lib/use-draft.js';
import { EMPTY_FORM, ISSUE_KEY_LABELS, toIssueKeyRequest, type IssueKeyForm } from './issue-key-form.js';
import { KeyLimitFields } from './key-limit-fields.js';

/** The scopes and the RAG collections answer "Pick at least one scope" together. */
const SCOPE_FIELDS = { scopes: ['ragCollections'], ragCollections: ['scopes'] } as const;

const SCOPES = [
  { value: 'chat', label: 'chat', hint: 'Chat completions and Messages' },
  { value: 'embeddings', label: 'embeddings', hint: 'Embeddings' },
  { value: 'responses', label: 'responses', hint: 'Responses API' },
  { value: '*', label: '*', hint: 'Everything' },
] as const;

const EXPIRY = [
  { value: '', label: 'Never' },
  { value: '1', label: 'In 1 day' },
  { value: '7', label: 'In 7 days' },
  { value: '30', label: 'In 30 days' },
  { value: '90', label: 'In 90 days' },
  { value: '365', label: 'In a year' },
] as const;

function toggle(list: readonly string[], value: string): string[] {
  return list.includes(value) ? list.filter((item) => item !== value) : [...list, value];
}

/** Issues an API key: owner, scopes, model allow-list, limits, budgets and expiry. */
export function IssueKeyDialog({
  onClose,
  onIssued,
}: {
  readonly onClose: () => void;
  readonly onIssued: (key: ApiKeyCreated) => void;
}) {
  const draft = useDraft<IssueKeyForm>(() => EMPTY_FORM, SCOPE_FIELDS);
  const { form, errors, set } = draft;
  const issue = useIssueKey();
  const models = useModelSettings();
  const scopesErrorId = useId();
  const submit = (): void => {
    const result = toIssueKeyRequest(form);
    draft.setErrors(result.errors);
    if (result.body) issue.mutate(result.body, { onSuccess: onIssued });
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
      confirmLabel="Issue key"
      confirmTestId="confirm-issue-key"
      error={issue.error}
      errorTitle="Could not issue the key"
    >
      <Field
        label={ISSUE_KEY_LABELS.name}
        htmlFor="key-name"
        hint="What the key is for, e.g. ci-pipeline."
        error={errors.name}
      >
        <TextInput id="key-name" value={form.name} onChange={(event) => set('name', event.target.value)} />
      </Field>
      <Field label={ISSUE_KEY_LABELS.user} htmlFor="key-user" error={errors.user}>
        <TextInput
          id="key-user"
          placeholder="alice@example.com"
          value={form.user}
          onChange={(event) => set('user', event.target.value)}
        />
      </Field>
      <Field label={ISSUE_KEY_LABELS.team} htmlFor="key-team" error={errors.team}>
        <TextInput
          id="key-team"
          placeholder="platform"
          value={form.team}
          onChange={(event) => set('team', event.target.value)}
        />
      </Field>
      <Field label={ISSUE_KEY_LABELS.expiresInDays} htmlFor="key-expiry" error={errors.expiresInDays}>
        <Select
          id="key-expiry"
          value={form.expiresInDays}
          onChange={(event) => set('expiresInDays', event.target.value)}
        >
          {EXPIRY.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </Select>
      </Field>
      <fieldset className="form-span fieldset">
        <legend className="field-label">{ISSUE_KEY_LABELS.scopes}</legend>
        <div className="chip-row">
          {SCOPES.map((scope) => (
            <label key={scope.value} className="chip-check" title={scope.hint}>
              <input
                type="checkbox"
                {...(errors.scopes ? { 'aria-invalid': true, 'aria-describedby': scopesErrorId } : {})}
                checked={form.scopes.includes(scope.value)}
                onChange={() => set('scopes', toggle(form.scopes, scope.value))}
              />
              <span className="mono">{scope.label}</span>
            </label>
          ))}
        </div>
        {errors.scopes && (
          <div className="field-error" id={scopesErrorId}>
            {errors.scopes}
          </div>
        )}
      </fieldset>
      <Field
        label={ISSUE_KEY_LABELS.ragCollections}
        htmlFor="key-rag"
        error={errors.ragCollections}
        hint="Comma separated; * for all. Adds rag:<collection> scopes."
      >
        <TextInput
          id="key-rag"
          placeholder="docs, wiki"
          value={form.ragCollections}
          onChange={(event) => set('ragCollections', event.target.value)}
        />
      </Field>
      <fieldset className="fieldset">
        <legend className="field-label">{ISSUE_KEY_LABELS.models}</legend>
        <div className="chip-row">
          {(models.data?.allowed_models ?? []).map((model) => (
            <label key={model} className="chip-check">
              <input
                type="checkbox"
                checked={form.models.includes(model)}
                onChange={() => set('models', toggle(form.models, model))}
              />
              <span className="mono">{model}</span>
            </label>
          ))}
        </div>
        <div className="field-hint">
          {form.models.length ? 'Only the checked models.' : 'None checked: every allowed model.'}
        </div>
      </fieldset>
      <KeyLimitFields draft={draft} />
    </FormDialog>
  );
}
