import { useState } from 'react';
import { FormDialog } from '../../components/dialog.js';
import { Field, TextInput } from '../../components/field.js';
import {
  DEPLOYMENT_LABELS,
  toDeploymentInput,
  type DeploymentDraft,
  type DeploymentErrors,
} from './deployment-form.js';

// Suggestions only: any provider name the gateway knows is accepted, and it says so when one is not.
const PROVIDERS = [
  'openai',
  'anthropic',
  'azure',
  'ollama',
  'lmstudio',
  'vllm',
  'llamacpp',
  'openrouter',
  'gemini',
  'groq',
  'mistral',
  'deepseek',
  'together_ai',
  'xai',
  'fireworks_ai',
  'openai_compatible',
  'demo',
];

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
}: {
  readonly initial: DeploymentDraft;
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
      | 'model'
      | 'provider'
      | 'upstreamModel'
      | 'baseUrl'
      | 'apiKeyEnv'
      | 'weight'
      | 'timeoutMs'
      | 'maxRetries'
      | 'apiVersion'
      | 'capabilities'
      | 'responsesApi',
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
      title={isNew ? 'Add a deployment' : `Edit ${initial.id || initial.model}`}
      description="One upstream serving a model name. Several deployments of one model share its traffic by weight and fall back to each other."
      onClose={onClose}
      onSubmit={submit}
      confirmLabel={isNew ? 'Add to draft' : 'Update draft'}
      confirmTestId="confirm-deployment"
    >
      {text('model', {
        hint: 'The name clients send. Allow it above for requests to reach this deployment.',
        placeholder: 'team-gpt',
        list: 'deployment-models',
      })}
      {text('provider', {
        hint: 'Empty: inferred from the upstream model name.',
        placeholder: 'openai',
        list: 'deployment-providers',
      })}
      {text('upstreamModel', {
        hint: 'The name the provider knows. Empty: the model name without its provider prefix.',
        placeholder: 'gpt-4o-mini',
      })}
      {text('baseUrl', {
        hint: "Empty: the provider's default address.",
        placeholder: 'http://127.0.0.1:8000/v1',
      })}
      {text('apiKeyEnv', {
        hint: "The variable's name in the gateway's environment, one its startup configuration allows (gateway.key_variables, or named by a deployment of the file); the gateway reads the key from it.",
        placeholder: 'OPENAI_API_KEY',
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
      {text('timeoutMs', { hint: 'Empty: the gateway default.', inputMode: 'numeric' })}
      {text('apiVersion', {
        hint: 'Azure OpenAI only: calls go to /openai/deployments/<upstream model>/... with this api-version.',
        placeholder: '2024-10-21',
      })}
      {text('capabilities', {
        hint: 'Comma-separated: responses, streaming, vision, reasoning, structured_outputs, stateful, tools, tool:<type>. Empty: not restricted.',
      })}
      {text('responsesApi', {
        hint: 'native (the provider has its own /responses) or translate (over its chat API). Empty: native for OpenAI itself.',
        placeholder: 'translate',
      })}
      {text('maxRetries', {
        hint: 'Attempts here after a 429, 5xx, timeout or dropped connection, before the next deployment. Empty: the gateway default.',
        inputMode: 'numeric',
      })}
      {errors.id && <div className="field-error form-span">{errors.id}</div>}
      {errors.form && <div className="field-error form-span">{errors.form}</div>}
      <datalist id="deployment-providers">
        {PROVIDERS.map((provider) => (
          <option key={provider} value={provider} />
        ))}
      </datalist>
      <datalist id="deployment-models">
        {models.map((model) => (
          <option key={model} value={model} />
        ))}
      </datalist>
    </FormDialog>
  );
}
