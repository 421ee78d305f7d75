import { asBaseUrl, providerSettings } from '../gateway/providers/provider-settings.js';
import { deploymentIdSchema } from '../../shared/gateway-api.js';

/**
 * One LiteLLM `model_list[]` entry as a Gatehouse deployment. Every key either becomes part of the
 * deployment or is reported by its path; values are never copied into a report (they may be keys).
 */

type Json = Record<string, unknown>;

/** A LiteLLM key Gatehouse does not take over, by its path in the file, and why. Never holds the value. */
export interface UnmappedKey {
  readonly path: string;
  readonly reason: string;
}

/** LiteLLM's per-token prices, and the side of Gatehouse's pricing each becomes. */
const PRICE_KEYS = {
  input_cost_per_token: 'input',
  output_cost_per_token: 'output',
  cache_read_input_token_cost: 'cachedInput',
  cache_creation_input_token_cost: 'cacheWrite',
  cache_creation_input_token_cost_above_1hr: 'cacheWrite1h',
} as const;
type PriceSide = (typeof PRICE_KEYS)[keyof typeof PRICE_KEYS];

/** A deployment's rate limit as the entry wrote it (`rpm`, `tpm`), and its path in the file. */
export interface DeploymentRate {
  readonly value: number;
  readonly path: string;
}

/** The rate limits of one deployment; LiteLLM reads `litellm_params` first, then `model_info`. */
export interface DeploymentRates {
  readonly rpm?: DeploymentRate;
  readonly tpm?: DeploymentRate;
}

/**
 * A converted entry: the deployment, its rate limits (the import turns them into the model's own) and,
 * when the entry gave token prices, the model's pricing.
 */
export interface ConvertedEntry {
  readonly deployment: Json;
  readonly rates: DeploymentRates;
  readonly price?: {
    readonly input_per_mtok: number;
    readonly output_per_mtok: number;
    readonly cached_input_per_mtok?: number;
    readonly cache_write_per_mtok?: number;
    readonly cache_write_1h_per_mtok?: number;
  };
}

/** LiteLLM's provider prefixes that name a provider Gatehouse calls, with Gatehouse's name for it. */
const PROVIDERS: Readonly<Record<string, string>> = {
  openai: 'openai',
  azure: 'azure',
  anthropic: 'anthropic',
  ollama: 'ollama',
  ollama_chat: 'ollama',
  hosted_vllm: 'vllm',
  lm_studio: 'lmstudio',
  openrouter: 'openrouter',
  gemini: 'gemini',
  groq: 'groq',
  mistral: 'mistral',
  deepseek: 'deepseek',
  together_ai: 'together_ai',
  xai: 'xai',
  fireworks_ai: 'fireworks_ai',
};

/** An Azure address of the v1 API, which takes no api-version. */
const AZURE_V1_ADDRESS = /\/openai\/v1\/?$/;

const ENV_PREFIX = 'os.environ/';
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Why `stream_timeout` is not taken, wherever it is written: Gatehouse's one timeout also bounds whole answers. */
export const STREAM_TIMEOUT =
  "Gatehouse has one timeout per deployment, timeout_ms (from litellm_params.timeout): the longest wait for headers and the longest silence mid-stream, streamed or not; set timeout to bound streams' silences (it applies to whole answers too)";

/** Whether a parsed YAML value is a mapping. */
export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The variable name of an `os.environ/NAME` reference, or undefined for any other value. */
export function envReference(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value.startsWith(ENV_PREFIX)) return undefined;
  const name = value.slice(ENV_PREFIX.length);
  return ENV_NAME.test(name) ? name : undefined;
}

/** Seconds as LiteLLM writes them (a number or a numeric string), in whole milliseconds; undefined when unusable. */
export function secondsToMs(value: unknown): number | undefined {
  const seconds = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0) return undefined;
  return Math.max(1, Math.round(seconds * 1000));
}

/** A retry count Gatehouse accepts (0 to 10), or undefined. */
export function retryCount(value: unknown): number | undefined {
  return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 10 ? (value as number) : undefined;
}

/** Per-token USD prices as per-million-token ones, without float noise (2.5e-6 -> 2.5). */
const perMillion = (perToken: number): number => Number((perToken * 1_000_000).toPrecision(12));

/** Provider and upstream model of `litellm_params.model` (`azure/my-deployment`), or why there are none. */
function splitModel(
  model: string,
  customProvider: unknown,
): { provider?: string; upstream: string } | { problem: string } {
  if (typeof customProvider === 'string') {
    const provider = PROVIDERS[customProvider];
    if (provider === undefined) return { problem: `provider '${customProvider}' is not one Gatehouse calls` };
    return {
      provider,
      upstream: model.startsWith(`${customProvider}/`) ? model.slice(customProvider.length + 1) : model,
    };
  }
  const slash = model.indexOf('/');
  if (slash < 0) return { upstream: model };
  const prefix = model.slice(0, slash);
  const provider = PROVIDERS[prefix];
  if (provider === undefined) return { problem: `provider '${prefix}' is not one Gatehouse calls` };
  return { provider, upstream: model.slice(slash + 1) };
}

/** Whether Gatehouse already reads `name` for this provider's address, so `api_base: os.environ/<name>` needs no key. */
function readsBaseUrlFrom(provider: string, name: string): boolean {
  // With a path: a bare origin is one asBaseUrl completes (a local server's `/v1`), and would not compare.
  const probe = 'http://probe.invalid/probe';
  try {
    const settings = providerSettings(
      {
        id: 'probe',
        model: 'probe',
        provider,
        upstreamModel: 'probe',
        timeoutMs: 1,
        weight: 1,
        maxRetries: 0,
        explicit: true,
      },
      { [name]: probe },
    );
    return settings.baseUrl === probe;
  } catch {
    return false;
  }
}

/**
 * Converts `model_list[index]`. Undefined when the entry cannot become a deployment at all (the
 * reason is reported on the entry's path). `defaultTimeoutMs` is the file-wide timeout, if any.
 */
export function convertModelEntry(
  entry: unknown,
  index: number,
  unmapped: UnmappedKey[],
  defaultTimeoutMs: number | undefined,
): ConvertedEntry | undefined {
  const at = `model_list[${index}]`;
  const skip = (reason: string): undefined => {
    unmapped.push({ path: at, reason: `${reason}; this deployment is left out` });
    return undefined;
  };
  if (!isObject(entry)) return skip('not a mapping');
  const { model_name: name, litellm_params: params, model_info: info, ...rest } = entry;
  if (typeof name !== 'string' || name === '') return skip('model_name is missing');
  if (name.includes('*')) return skip(`wildcard model_name '${name}' (Gatehouse routes exact model names)`);
  if (!isObject(params) || typeof params.model !== 'string') return skip('litellm_params.model is missing');
  const split = splitModel(params.model, params.custom_llm_provider);
  if ('problem' in split) return skip(`litellm_params.model: ${split.problem}`);
  // LiteLLM's weighted shuffle never picks a weight of 0; Gatehouse has none, and its default of 1
  // would hand such a parked deployment an equal share of the traffic.
  if (params.weight === 0) {
    unmapped.push({
      path: `${at}.litellm_params.weight`,
      reason: '0, so LiteLLM never routes to it; this deployment is left out',
    });
    return undefined;
  }

  const deployment: Json = { model: name };
  const prices: Partial<Record<PriceSide, number>> = {};
  /** Where each price was read, for a report that names it. */
  const priceAt: Partial<Record<PriceSide, string>> = {};
  const report = (key: string, reason: string): void => {
    unmapped.push({ path: `${at}.${key}`, reason });
  };
  const rates: { rpm?: DeploymentRate; tpm?: DeploymentRate } = {};
  /** Takes a rate limit at `key` unless `litellm_params` already gave one, as LiteLLM's router reads them. */
  const takeRate = (measure: 'rpm' | 'tpm', key: string, value: unknown): void => {
    const earlier = rates[measure];
    if (earlier !== undefined) {
      if (earlier.value !== value) report(key, `${earlier.path.slice(at.length + 1)} is used instead, as LiteLLM does`);
    } else if (Number.isSafeInteger(value) && (value as number) > 0)
      rates[measure] = { value: value as number, path: `${at}.${key}` };
    else report(key, 'not a whole number above 0');
  };
  const id = isObject(info) ? info.id : undefined;
  // YAML reads `id: 7` as a number: the same id written without quotes.
  if ((typeof id === 'string' && deploymentIdSchema.safeParse(id).success) || Number.isSafeInteger(id))
    deployment.id = String(id);
  else if (id !== undefined)
    report(
      'model_info.id',
      'not an id Gatehouse takes (letters, digits and . _ : / # -) or a whole number; the deployment gets an id of its own',
    );
  if (split.provider !== undefined) deployment.provider = split.provider;
  deployment.upstream_model = split.upstream;
  const provider = split.provider;

  for (const [key, value] of Object.entries(params)) {
    const path = `litellm_params.${key}`;
    switch (key) {
      case 'model':
      case 'custom_llm_provider':
        break;
      case 'api_base':
      case 'base_url': {
        const env = envReference(value);
        if (env !== undefined) {
          // Kept without its address, the deployment would send its key and prompts to the
          // provider's public address (or nowhere): it is left out instead.
          if (provider === undefined || !readsBaseUrlFrom(provider, env))
            return skip(`${path} reads the address from ${env}, which Gatehouse does not; write the address instead`);
        } else if (typeof value === 'string') {
          // LiteLLM's Ollama address is the server's origin (it calls the native API); written out
          // as the OpenAI-compatible address Gatehouse calls, `/v1` included.
          deployment.base_url = provider === 'ollama' ? asBaseUrl(provider, value) : value;
        } else report(path, 'not a string');
        break;
      }
      case 'api_key': {
        const env = envReference(value);
        if (env !== undefined) deployment.api_key_env = env;
        else if (typeof value === 'string' && value !== '' && !value.startsWith(ENV_PREFIX)) deployment.api_key = value;
        else report(path, 'neither a key nor os.environ/<NAME>');
        break;
      }
      case 'api_version':
        if (provider !== 'azure') report(path, 'only Azure deployments take api_version');
        else if (typeof value === 'string' && value !== '' && envReference(value) === undefined)
          deployment.api_version = value;
        else report(path, 'Gatehouse reads api_version from the file only; write the version');
        break;
      case 'timeout': {
        const ms = secondsToMs(value);
        if (ms !== undefined) deployment.timeout_ms = ms;
        else report(path, 'not a positive number of seconds');
        break;
      }
      case 'max_retries': {
        const count = retryCount(value);
        if (count !== undefined) deployment.max_retries = count;
        else report(path, 'Gatehouse takes 0 to 10 retries');
        break;
      }
      case 'weight':
        if (typeof value === 'number' && value > 0) deployment.weight = value;
        else report(path, 'not a positive number');
        break;
      case 'input_cost_per_token':
      case 'output_cost_per_token':
      case 'cache_read_input_token_cost':
      case 'cache_creation_input_token_cost':
      case 'cache_creation_input_token_cost_above_1hr':
        if (typeof value === 'number' && value >= 0) {
          prices[PRICE_KEYS[key]] = value;
          priceAt[PRICE_KEYS[key]] = path;
        } else report(path, 'not a non-negative number');
        break;
      case 'rpm':
      case 'tpm':
        takeRate(key, path, value);
        break;
      case 'stream_timeout':
        report(path, STREAM_TIMEOUT);
        break;
      default:
        report(path, 'no Gatehouse equivalent');
    }
  }
  if (deployment.timeout_ms === undefined && defaultTimeoutMs !== undefined) deployment.timeout_ms = defaultTimeoutMs;
  if (provider === 'azure' && deployment.api_version === undefined) {
    // Without a version, calls go to <base_url>/chat/completions: Azure's v1 API, whose address ends in
    // /openai/v1. At a resource's own address LiteLLM would add its default version; Gatehouse has
    // none, so every call would be a 404: the deployment is left out until the version is written.
    const base = typeof deployment.base_url === 'string' ? deployment.base_url : undefined;
    if (base !== undefined && !AZURE_V1_ADDRESS.test(base))
      return skip(
        `litellm_params.api_version is ${params.api_version === undefined ? 'missing' : 'not written out'}, and calls to ${base} without one go to its /chat/completions, which Azure answers 404; write the version (as 2024-10-21), or an address ending in /openai/v1`,
      );
    if (params.api_version === undefined)
      report(
        'litellm_params.api_version',
        'missing: LiteLLM would use AZURE_API_VERSION or its default; Gatehouse calls Azure v1 paths (<base_url>/chat/completions) without one',
      );
  }

  if (isObject(info)) {
    for (const [key, value] of Object.entries(info)) {
      if (key === 'id') continue;
      // An embeddings model has no output tokens: its price is the input's alone (below).
      if (key === 'mode' && value === 'embedding') continue;
      if (Object.hasOwn(PRICE_KEYS, key) && typeof value === 'number' && value >= 0) {
        const side = PRICE_KEYS[key as keyof typeof PRICE_KEYS];
        prices[side] ??= value;
        priceAt[side] ??= `model_info.${key}`;
      } else if (key === 'rpm' || key === 'tpm') takeRate(key, `model_info.${key}`, value);
      else report(`model_info.${key}`, 'no Gatehouse equivalent');
    }
  } else if (info !== undefined) report('model_info', 'not a mapping');
  for (const key of Object.keys(rest)) report(key, 'no Gatehouse equivalent');

  if (prices.input !== undefined && isObject(info) && info.mode === 'embedding') prices.output ??= 0;
  if (prices.input !== undefined && prices.output !== undefined)
    return {
      deployment,
      rates,
      price: {
        input_per_mtok: perMillion(prices.input),
        output_per_mtok: perMillion(prices.output),
        ...(prices.cachedInput === undefined ? {} : { cached_input_per_mtok: perMillion(prices.cachedInput) }),
        ...(prices.cacheWrite === undefined ? {} : { cache_write_per_mtok: perMillion(prices.cacheWrite) }),
        ...(prices.cacheWrite1h === undefined ? {} : { cache_write_1h_per_mtok: perMillion(prices.cacheWrite1h) }),
      },
    };
  if (priceAt.input !== undefined)
    report(
      priceAt.input,
      'Gatehouse prices a chat model by both; add output_cost_per_token (or model_info.mode: embedding)',
    );
  if (priceAt.output !== undefined)
    report(priceAt.output, 'Gatehouse prices a model by both; add input_cost_per_token');
  for (const side of ['cachedInput', 'cacheWrite', 'cacheWrite1h'] as const)
    if (priceAt[side] !== undefined)
      report(
        priceAt[side],
        'Gatehouse prices cached input only beside input_cost_per_token and output_cost_per_token; add them',
      );
  return { deployment, rates };
}
