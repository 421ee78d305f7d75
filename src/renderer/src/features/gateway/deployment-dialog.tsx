import { useState } from 'react';
import type { DeploymentDefaults, DeploymentInput, DeploymentTestResult } from '../../../../shared/gateway-api.js';
import { useDeploymentTest } from '../../api/deployment-test-queries.js';
import { Button } from '../../components/button.js';
import { FormDialog } from '../../components/dialog.js';
import { Field, Select, TextInput } from '../../components/field.js';
import {
  DEPLOYMENT_LABELS,
  DEPLOYMENT_PROVIDERS,
  toDeploymentInput,
  type DeploymentDraft,
  type DeploymentErrors,
} from './deployment-form.js';

/** A test's outcome in one line: the verdict, the upstream's status and time, then what was found. */
function testSummary(result: DeploymentTestResult): string {
  const status = result.status !== null ? ` · HTTP ${result.status}` : '';
  return `${result.ok ? 'Connection OK' : 'Connection failed'}${status} · ${result.latency_ms} ms: ${result.message}`;
}

/**
 * "Test connection": one real call to the deployment's provider as the form stands (saved or not; a
 * stored key is used for its own id and address), its result said in words beside the button
 * (role=status, so a screen reader hears it). `prepare` gives the deployment, or undefined when its
 * fields do not pass, which `invalid` then explains.
 */
export function ConnectionTest({
  prepare,
  label,
  text = 'Test connection',
  invalid,
  compact = false,
}: {
  readonly prepare: () => DeploymentInput | undefined;
  readonly label: string;
  readonly text?: string;
  readonly invalid: string;
  /** In a table row: the result cut to two lines as a health error is (the whole text is its title). */
  readonly compact?: boolean;
}) {
  const test = useDeploymentTest();
  const [problem, setProblem] = useState<string>();
  const run = (): void => {
    const input = prepare();
    setProblem(input === undefined ? invalid : undefined);
    if (input === undefined) test.reset();
    else test.mutate(input);
  };
  const said = test.isPending
    ? 'Testing…'
    : (problem ??
      (test.error ? `Test not run: ${test.error.message}` : test.data ? testSummary(test.data) : undefined));
  const failed = problem !== undefined || test.error !== null || test.data?.ok === false;
  return (
    <span className={`connection-test cell-stack${compact ? ' health-cell' : ''}`}>
      <Button size="sm" variant="ghost" busy={test.isPending} onClick={run} aria-label={label}>
        {text}
      </Button>
      <span
        role="status"
        className={`connection-test-result ${failed ? 'field-error' : 'muted'}${compact ? ' health-error' : ''}`}
        title={said}
      >
        {said}
      </span>
    </span>
  );
}

/**
 * Adds or edits one deployment of the draft. Nothing is sent here: the row joins the model settings'
 * draft and is saved with them. The API key field is write-only and starts empty even when a key is
 * stored (the admin API never returns it).
 */
export function DeploymentDialog({
  initial,
  models,
  onClose,
  onDone,
  name,
  defaults,
}: {
  readonly initial: DeploymentDraft;
  /** What an empty timeout or retry count stands for, shown in those fields. */
  readonly defaults: DeploymentDefaults;
  /** The row's name where the list names it apart from others of its model (an unsaved one has no id). */
  readonly name?: string;
  readonly models: readonly string[];
  readonly onClose: () => void;
  readonly onDone: (draft: DeploymentDraft) => void;
}) {
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<DeploymentErrors>({});
  const isNew = initial.id === '' && initial.model === '';
  const set = <K extends keyof DeploymentDraft>(field: K, value: DeploymentDraft[K]): void => {
    setDraft((current) => ({ ...current, [field]: value }));
    // A message about a value that has since changed would be wrong; the next submit checks again.
    setErrors((current) => ({ ...current, [field]: undefined }));
  };
  const submit = (): void => {
    const result = toDeploymentInput(draft);
    setErrors(result.errors);
    if (result.input) onDone(draft);
  };
  const text = (
    field:
      | 'id'
      | 'model'
      | 'upstreamModel'
      | 'baseUrl'
      | 'apiKeyEnv'
      | 'weight'
      | 'timeoutMs'
      | 'maxRetries'
      | 'apiVersion'
      | 'capabilities',
    props: { hint?: string; placeholder?: string; list?: string; inputMode?: 'numeric' | 'decimal' } = {},
  ) => (
    <Field label={DEPLOYMENT_LABELS[field]} htmlFor={`deployment-${field}`} error={errors[field]} hint={props.hint}>
      <TextInput
        id={`deployment-${field}`}
        autoComplete="off"
        spellCheck={false}
        placeholder={props.placeholder}
        list={props.list}
        inputMode={props.inputMode}
        value={draft[field]}
        onChange={(event) => set(field, event.target.value)}
      />
    </Field>
  );
  return (
    <FormDialog
      wide
      testId="deployment-dialog"
      title={isNew ? 'Add a deployment' : `Edit ${name ?? (initial.id || initial.model)}`}
      description="One upstream serving a model name. Several deployments of one model share its traffic by weight and fall back to each other."
      onClose={onClose}
      onSubmit={submit}
      confirmLabel={isNew ? 'Add to draft' : 'Update draft'}
      confirmTestId="confirm-deployment"
    >
      {/* Only before the first save: the id names the deployment in usage, health and audit for good. */}
      {initial.key.startsWith('new-') &&
        text('id', {
          hint: 'Optional: the name usage, health and the audit trail give it for good (letters, digits and . _ : / # -). Empty: <model>#<n>.',
          placeholder: 'openai-east',
        })}
      {text('model', {
        hint: 'The name clients send. Allow it above for requests to reach this deployment.',
        placeholder: 'team-gpt',
        list: 'deployment-models',
      })}
      <Field label={DEPLOYMENT_LABELS.provider} htmlFor="deployment-provider" error={errors.provider}>
        <Select
          id="deployment-provider"
          value={draft.provider}
          onChange={(event) => set('provider', event.target.value)}
        >
          <option value="">Inferred from the upstream model name (openai/…, ollama/…)</option>
          {/* A saved value the list lacks stays choosable, so opening a row never changes it. */}
          {[...new Set([...Object.keys(DEPLOYMENT_PROVIDERS), draft.provider].filter(Boolean))].map((provider) => (
            <option key={provider} value={provider}>
              {provider in DEPLOYMENT_PROVIDERS
                ? `${provider} · ${DEPLOYMENT_PROVIDERS[provider as keyof typeof DEPLOYMENT_PROVIDERS]}`
                : provider}
            </option>
          ))}
        </Select>
      </Field>
      {text('upstreamModel', {
        hint: 'The name the provider knows. Empty: the model name without its provider prefix.',
        placeholder: 'gpt-4o-mini',
      })}
      {text('baseUrl', {
        hint: "Empty: the provider's default address.",
        placeholder: 'http://127.0.0.1:8000/v1',
      })}
      {text('apiKeyEnv', {
        hint: "The name of a variable in the gateway's environment, which it reads the key from. Only variables the startup configuration allows: those listed in gateway.key_variables, or named by a deployment of the startup file; any other (OPENAI_API_KEY too) is refused on save.",
        placeholder: 'A variable listed in gateway.key_variables',
      })}
      <Field
        label={DEPLOYMENT_LABELS.apiKey}
        htmlFor="deployment-apiKey"
        error={errors.apiKey}
        hint={
          draft.apiKeySet && !draft.apiKeyEnv
            ? 'A key is stored. Leave empty to keep it; type one to replace it.'
            : 'Optional, write-only: the gateway stores it and never shows it again. Prefer an environment variable.'
        }
      >
        <TextInput
          id="deployment-apiKey"
          type="password"
          autoComplete="new-password"
          placeholder={draft.apiKeySet && !draft.apiKeyEnv ? '•••••• stored' : ''}
          value={draft.apiKey}
          onChange={(event) => set('apiKey', event.target.value)}
        />
      </Field>
      {text('weight', {
        hint: 'Share of the model’s traffic relative to its other deployments.',
        inputMode: 'decimal',
      })}
      {text('timeoutMs', {
        hint: `Longest wait for the upstream's first byte, and longest silence mid-answer. Empty: the gateway default, ${defaults.timeout_ms} ms.`,
        placeholder: String(defaults.timeout_ms),
        inputMode: 'numeric',
      })}
      {text('apiVersion', {
        hint: 'Azure OpenAI only: calls go to /openai/deployments/<upstream model>/... with this api-version.',
        placeholder: '2024-10-21',
      })}
      {text('capabilities', {
        hint: 'Comma-separated: responses, streaming, vision, reasoning, structured_outputs, stateful, tools, tool:<type>. Empty: not restricted.',
      })}
      <Field
        label={DEPLOYMENT_LABELS.responsesApi}
        htmlFor="deployment-responsesApi"
        error={errors.responsesApi}
        hint="How /v1/responses reaches this deployment."
      >
        <Select
          id="deployment-responsesApi"
          value={draft.responsesApi}
          onChange={(event) => set('responsesApi', event.target.value)}
        >
          <option value="">Default: native for OpenAI itself, translate for every other</option>
          <option value="native">native: the provider's own /responses</option>
          <option value="translate">translate: over its chat API</option>
          {/* A saved value the select lacks stays shown, so the save names it rather than dropping it. */}
          {draft.responsesApi !== '' && !['native', 'translate'].includes(draft.responsesApi) && (
            <option value={draft.responsesApi}>{draft.responsesApi}</option>
          )}
        </Select>
      </Field>
      {text('maxRetries', {
        hint: `Attempts here after a 429, 5xx, timeout or dropped connection, before the next deployment. Empty: the gateway default, ${defaults.max_retries} (gateway.max_retries).`,
        placeholder: String(defaults.max_retries),
        inputMode: 'numeric',
      })}
      <div className="form-span">
        <ConnectionTest
          label="Test connection"
          invalid="Fix the fields marked above first."
          prepare={() => {
            const result = toDeploymentInput(draft);
            setErrors(result.errors);
            return result.input;
          }}
        />
      </div>
      {errors.id && <div className="field-error form-span">{errors.id}</div>}
      {errors.form && <div className="field-error form-span">{errors.form}</div>}
      <datalist id="deployment-models">
        {models.map((model) => (
          <option key={model} value={model} />
        ))}
      </datalist>
    </FormDialog>
  );
}
