import { useState } from 'react';
import type { ApiKeyCreated } from '../../../../shared/gateway-api.js';
import { useIssueKey, useModelSettings } from '../../api/gateway-queries.js';
import { FormDialog } from '../../components/dialog.js';
import { Field, Select, TextInput } from '../../components/field.js';
import { KEY_LIMIT_FIELDS } from './key-limits-form.js';
import { EMPTY_FORM, toRequest, validateForm, type IssueKeyForm } from './issue-key-form.js';

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
  const [form, setForm] = useState<IssueKeyForm>(EMPTY_FORM);
  const [touched, setTouched] = useState(false);
  const issue = useIssueKey();
  const models = useModelSettings();
  const errors = touched ? validateForm(form) : {};
  const set = <K extends keyof IssueKeyForm>(field: K, value: IssueKeyForm[K]): void =>
    setForm((current) => ({ ...current, [field]: value }));
  const number = (field: keyof typeof KEY_LIMIT_FIELDS) => (
    <Field label={KEY_LIMIT_FIELDS[field].label} htmlFor={`key-${field}`} error={errors[field]}>
      <TextInput
        id={`key-${field}`}
        inputMode="numeric"
        placeholder="No limit"
        value={form[field]}
        onChange={(event) => set(field, event.target.value)}
      />
    </Field>
  );
  const submit = (): void => {
    setTouched(true);
    if (Object.keys(validateForm(form)).length > 0) return;
    issue.mutate(toRequest(form), { onSuccess: onIssued });
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
      <Field label="Name" htmlFor="key-name" hint="What the key is for, e.g. ci-pipeline." error={errors.name}>
        <TextInput id="key-name" value={form.name} onChange={(event) => set('name', event.target.value)} />
      </Field>
      <Field label="User" htmlFor="key-user">
        <TextInput
          id="key-user"
          placeholder="alice@example.com"
          value={form.user}
          onChange={(event) => set('user', event.target.value)}
        />
      </Field>
      <Field label="Team" htmlFor="key-team">
        <TextInput
          id="key-team"
          placeholder="platform"
          value={form.team}
          onChange={(event) => set('team', event.target.value)}
        />
      </Field>
      <Field label="Expires" htmlFor="key-expiry">
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
        <legend className="field-label">Scopes</legend>
        <div className="chip-row">
          {SCOPES.map((scope) => (
            <label key={scope.value} className="chip-check" title={scope.hint}>
              <input
                type="checkbox"
                checked={form.scopes.includes(scope.value)}
                onChange={() => set('scopes', toggle(form.scopes, scope.value))}
              />
              <span className="mono">{scope.label}</span>
            </label>
          ))}
        </div>
        {errors.scopes && <div className="field-error">{errors.scopes}</div>}
      </fieldset>
      <Field
        label="RAG collections"
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
        <legend className="field-label">Models</legend>
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
      <div className="form-section form-span">Rate limits of the key (refilled over a minute)</div>
      {number('rpm')}
      {number('tpm')}
      <div className="form-section form-span">Budgets this key sets for its user and team (per UTC minute and day)</div>
      {number('userTpm')}
      {number('userTpd')}
      {number('teamTpm')}
      {number('teamTpd')}
    </FormDialog>
  );
}
