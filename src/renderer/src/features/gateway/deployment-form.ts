import {
  deploymentInputSchema,
  type DeploymentDefaults,
  type DeploymentInput,
  type DeploymentList,
  type DeploymentView,
} from '../../../../shared/gateway-api.js';
import { parseForm, type FormFieldRef } from '../../lib/form-issues.js';
import { PROVIDER_LABELS } from '../../../../shared/providers.js';

/** One deployment as the editor holds it: strings, because inputs are strings. */
export interface DeploymentDraft {
  /** React key: the id for saved deployments, a local one for new rows. */
  readonly key: string;
  /** Typed or empty for a new deployment; empty, the gateway names it `<model>#<n>` (n from 1, per model). */
  readonly id: string;
  readonly model: string;
  readonly provider: string;
  readonly upstreamModel: string;
  readonly baseUrl: string;
  /** The NAME of an environment variable of the gateway's process, never a key. */
  readonly apiKeyEnv: string;
  /** Write-only: typed to set a new key, empty to keep the stored one. Never filled from the server. */
  readonly apiKey: string;
  /** Whether the gateway holds a key for it (shown as such, never as a value). */
  readonly apiKeySet: boolean;
  readonly weight: string;
  readonly timeoutMs: string;
  /** Retries of this deployment before falling back; empty for the gateway's default. */
  readonly maxRetries: string;
  /** Azure's `api-version`; empty for none. */
  readonly apiVersion: string;
  /** Declared capabilities, comma-separated; empty for none declared (not restricted). */
  readonly capabilities: string;
  /** How /v1/responses reaches the deployment: `native`, `translate`, or empty for the default. */
  readonly responsesApi: string;
}

/** Field-level problems of a draft. */
export type DeploymentErrors = Partial<
  Record<
    | 'model'
    | 'provider'
    | 'upstreamModel'
    | 'baseUrl'
    | 'apiKeyEnv'
    | 'apiKey'
    | 'weight'
    | 'timeoutMs'
    | 'maxRetries'
    | 'apiVersion'
    | 'capabilities'
    | 'responsesApi'
    | 'id'
    | 'form',
    string
  >
>;

let counter = 0;

/** A blank row for the add form. */
export function emptyDraft(): DeploymentDraft {
  counter += 1;
  return {
    key: `new-${counter}`,
    id: '',
    model: '',
    provider: '',
    upstreamModel: '',
    baseUrl: '',
    apiKeyEnv: '',
    apiKey: '',
    apiKeySet: false,
    weight: '1',
    timeoutMs: '',
    maxRetries: '',
    apiVersion: '',
    capabilities: '',
    responsesApi: '',
  };
}

/**
 * The editor's copy of a saved deployment; the key itself never comes back, only whether one is set. A
 * timeout or retry count equal to the gateway's default is left empty, so a save from the screen keeps
 * following the default (as a deployment that never set one does) rather than pinning today's value.
 */
export function draftOf(view: DeploymentView, defaults: DeploymentDefaults): DeploymentDraft {
  return {
    key: view.id,
    id: view.id,
    model: view.model,
    provider: view.provider,
    upstreamModel: view.upstream_model,
    baseUrl: view.base_url ?? '',
    apiKeyEnv: view.api_key_env ?? '',
    apiKey: '',
    apiKeySet: view.api_key_set,
    weight: String(view.weight),
    timeoutMs: view.timeout_ms === defaults.timeout_ms ? '' : String(view.timeout_ms),
    maxRetries: view.max_retries === defaults.max_retries ? '' : String(view.max_retries),
    apiVersion: view.api_version ?? '',
    capabilities: (view.capabilities ?? []).join(', '),
    responsesApi: view.responses_api ?? '',
  };
}

/** The providers the gateway can call, with the product each stands for (shared with the server's check). */
export const DEPLOYMENT_PROVIDERS = PROVIDER_LABELS;

/** Each field's label in the dialog, also the subject of its messages ("Model is required"). */
export const DEPLOYMENT_LABELS = {
  id: 'Id',
  model: 'Model',
  provider: 'Provider',
  upstreamModel: 'Upstream model',
  baseUrl: 'Base URL',
  apiKeyEnv: 'API key environment variable',
  apiKey: 'API key',
  weight: 'Weight',
  timeoutMs: 'Timeout (ms)',
  maxRetries: 'Retries',
  apiVersion: 'API version (Azure)',
  capabilities: 'Capabilities',
  responsesApi: 'Responses API',
} as const satisfies Record<Exclude<keyof DeploymentErrors, 'form'>, string>;

const BODY_FIELDS = {
  id: 'id',
  model: 'model',
  provider: 'provider',
  upstream_model: 'upstreamModel',
  base_url: 'baseUrl',
  api_key: 'apiKey',
  api_key_env: 'apiKeyEnv',
  weight: 'weight',
  timeout_ms: 'timeoutMs',
  max_retries: 'maxRetries',
  api_version: 'apiVersion',
  capabilities: 'capabilities',
  responses_api: 'responsesApi',
} as const satisfies Record<string, keyof typeof DEPLOYMENT_LABELS>;

const FIELD_REFS: Readonly<Record<string, FormFieldRef<keyof DeploymentErrors>>> = Object.fromEntries(
  Object.entries(BODY_FIELDS).map(([body, field]) => [body, { field, label: DEPLOYMENT_LABELS[field] }]),
);

const text = (value: string): string | undefined => value.trim() || undefined;
/** A comma-separated list, or undefined when empty. */
const list = (value: string): string[] | undefined => {
  const items = value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  return items.length > 0 ? items : undefined;
};
// NaN is kept so that the shared schema, not this file, says what is wrong with the number.
const number = (value: string): number | undefined => (value.trim() ? Number(value.trim()) : undefined);

/**
 * The `PUT /internal/deployments` entry for a draft, checked with the shared schema the route uses
 * (its messages shown on the fields, worded to name them). An empty `apiKey` is left out, so the gateway keeps the key
 * it stores for this id.
 */
export function toDeploymentInput(draft: DeploymentDraft): {
  readonly input?: DeploymentInput;
  readonly errors: DeploymentErrors;
} {
  const errors: DeploymentErrors = {};
  if (draft.apiKeyEnv.trim() && draft.apiKey.trim())
    errors.apiKey = 'Give either a key or an environment variable, not both.';
  // The id goes back as listed (generated ones, `<model>#<n>`, too): the gateway keeps a stored key
  // only for the id it was listed under.
  const id = text(draft.id);
  const candidate = {
    id,
    model: draft.model.trim(),
    provider: text(draft.provider),
    upstream_model: text(draft.upstreamModel),
    base_url: text(draft.baseUrl),
    api_key: text(draft.apiKey),
    api_key_env: text(draft.apiKeyEnv),
    weight: number(draft.weight),
    timeout_ms: number(draft.timeoutMs),
    max_retries: number(draft.maxRetries),
    api_version: text(draft.apiVersion),
    capabilities: list(draft.capabilities),
    responses_api: text(draft.responsesApi),
  };
  const parsed = parseForm(deploymentInputSchema, candidate, FIELD_REFS, { field: 'form', label: 'The deployment' });
  for (const [field, message] of Object.entries(parsed.errors) as [keyof DeploymentErrors, string][])
    errors[field] ??= message;
  return parsed.data && Object.keys(errors).length === 0 ? { input: parsed.data, errors } : { errors };
}

/** True when the list differs from the saved one (order included: it is the routing order). */
export function deploymentsChanged(drafts: readonly DeploymentDraft[], saved: DeploymentList): boolean {
  return JSON.stringify(drafts) !== JSON.stringify(saved.data.map((view) => draftOf(view, saved.defaults)));
}
