import type { DeploymentConfig } from '../../config/schema.js';
import { withoutCredentials, type DeploymentInput, type DeploymentView } from '../../../shared/gateway-api.js';
import { DEFAULT_TIMEOUT_MS, sameAddress } from '../providers/provider-settings.js';
import type { Deployment } from '../providers/types.js';

/** Infers the provider of a model name (explicit prefix, known family, then the deployment list). */
export type ProviderInference = (model: string) => string | undefined;

/** Provider defaults from the configuration (`providers.<name>.base_url/api_key`, environment applied). */
export type ProviderDefaults = Readonly<Record<string, { readonly base_url?: string; readonly api_key?: string }>>;

/** Where deployment values come from besides the deployment itself. */
export interface DeploymentSources {
  readonly inferProvider: ProviderInference;
  readonly providers: ProviderDefaults;
  readonly env: NodeJS.ProcessEnv;
  /** Retries of a deployment that does not set its own (`gateway.max_retries`). */
  readonly maxRetries: number;
  /** Variables holding Gatehouse's own credentials, never read as a provider key (`ownSecretVariables`). */
  readonly ownSecrets: ReadonlyMap<string, string>;
  /**
   * For a list set through the admin API: the only variables its `api_key_env` may read (the API also
   * sets where the key goes, so any other variable of the gateway's environment could be sent anywhere).
   * Unset for the configuration file's own list, which may name any.
   */
  readonly apiKeyVariables?: ReadonlySet<string>;
}

/** Whether a deployment of these sources may read its key from `variable`. */
export function mayReadKeyVariable(variable: string, sources: DeploymentSources): boolean {
  return !sources.ownSecrets.has(variable) && (sources.apiKeyVariables?.has(variable) ?? true);
}

/** `openai/gpt-4o` -> `gpt-4o` when the prefix names the provider; otherwise the name unchanged. */
export function stripProviderPrefix(model: string, provider: string): string {
  return model.startsWith(`${provider}/`) ? model.slice(provider.length + 1) : model;
}

/** A deployment written in the configuration file or by the admin API, resolved. */
export function resolveDeployment(
  input: DeploymentConfig | DeploymentInput,
  id: string,
  sources: DeploymentSources,
): Deployment {
  const provider = input.provider ?? sources.inferProvider(input.upstream_model ?? input.model) ?? 'openai';
  const defaults = sources.providers[provider];
  // The provider-wide key goes only to the provider-wide address: a deployment pointing elsewhere
  // (a local Ollama, a colleague's vLLM) must not receive the organisation's OpenAI key.
  const sameHost = input.base_url === undefined || sameAddress(provider, input.base_url, defaults?.base_url);
  // A list saved before such names were refused may still name one: it is never read.
  const keyVariable =
    input.api_key_env !== undefined && mayReadKeyVariable(input.api_key_env, sources) ? input.api_key_env : undefined;
  const apiKey =
    input.api_key ?? (keyVariable ? sources.env[keyVariable] : undefined) ?? (sameHost ? defaults?.api_key : undefined);
  const baseUrl = input.base_url ?? defaults?.base_url;
  return {
    id,
    model: input.model,
    provider,
    upstreamModel: input.upstream_model ?? stripProviderPrefix(input.model, provider),
    ...(baseUrl !== undefined ? { baseUrl } : {}),
    ...(apiKey !== undefined ? { apiKey } : {}),
    ...(input.api_key_env !== undefined ? { apiKeyEnv: input.api_key_env } : {}),
    ...(input.api_version !== undefined ? { apiVersion: input.api_version } : {}),
    ...(input.responses_api !== undefined ? { responsesApi: input.responses_api } : {}),
    weight: input.weight ?? 1,
    timeoutMs: input.timeout_ms ?? DEFAULT_TIMEOUT_MS,
    maxRetries: input.max_retries ?? sources.maxRetries,
    ...(input.capabilities !== undefined ? { capabilities: input.capabilities } : {}),
    explicit: true,
  };
}

/**
 * Resolves a list, giving deployments without an id a stable one (`<model>#<n>`, n counted per model).
 * Listed ids are taken first, so a generated id steps aside for them. An id listed twice is refused
 * before a list is used (duplicateDeploymentId); here it would get a suffix.
 */
export function resolveDeployments(
  inputs: ReadonlyArray<DeploymentConfig | DeploymentInput>,
  sources: DeploymentSources,
): Deployment[] {
  const perModel = new Map<string, number>();
  const listed = new Set(inputs.flatMap((input) => (input.id !== undefined ? [input.id] : [])));
  const used = new Set<string>();
  return inputs.map((input) => {
    const n = (perModel.get(input.model) ?? 0) + 1;
    perModel.set(input.model, n);
    let id = input.id ?? `${input.model}#${n}`;
    const taken = (candidate: string): boolean =>
      used.has(candidate) || (input.id === undefined && listed.has(candidate));
    for (let suffix = 2; taken(id); suffix += 1) id = `${input.id ?? input.model}#${n}-${suffix}`;
    used.add(id);
    return resolveDeployment(input, id, sources);
  });
}

/** The first id listed more than once, with the positions of its two listings. */
export function duplicateDeploymentId(
  inputs: ReadonlyArray<{ readonly id?: string }>,
): { readonly id: string; readonly first: number; readonly second: number } | undefined {
  const seen = new Map<string, number>();
  for (const [index, { id }] of inputs.entries()) {
    if (id === undefined) continue;
    const first = seen.get(id);
    if (first !== undefined) return { id, first, second: index };
    seen.set(id, index);
  }
  return undefined;
}

/** The deployment derived from a model name alone, with the provider's configured defaults. */
export function implicitDeployment(model: string, provider: string, sources: DeploymentSources): Deployment {
  const defaults = sources.providers[provider];
  return {
    id: model,
    model,
    provider,
    upstreamModel: stripProviderPrefix(model, provider),
    ...(defaults?.base_url !== undefined ? { baseUrl: defaults.base_url } : {}),
    ...(defaults?.api_key !== undefined ? { apiKey: defaults.api_key } : {}),
    weight: 1,
    timeoutMs: DEFAULT_TIMEOUT_MS,
    maxRetries: sources.maxRetries,
    explicit: false,
  };
}

/** A deployment as the admin API shows it: whether a key is set, never the key nor credentials in its address. */
export function toDeploymentView(deployment: Deployment): DeploymentView {
  return {
    id: deployment.id,
    model: deployment.model,
    provider: deployment.provider,
    upstream_model: deployment.upstreamModel,
    // Lists saved before credentials in base_url were refused may still hold one.
    base_url: deployment.baseUrl === undefined ? null : withoutCredentials(deployment.baseUrl),
    api_key_set: deployment.apiKey !== undefined,
    api_key_env: deployment.apiKeyEnv ?? null,
    ...(deployment.apiVersion !== undefined ? { api_version: deployment.apiVersion } : {}),
    ...(deployment.responsesApi !== undefined ? { responses_api: deployment.responsesApi } : {}),
    weight: deployment.weight,
    timeout_ms: deployment.timeoutMs,
    max_retries: deployment.maxRetries,
    capabilities: deployment.capabilities ? [...deployment.capabilities] : null,
  };
}
