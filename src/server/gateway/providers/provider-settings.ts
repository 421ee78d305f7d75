import type { Deployment } from './types.js';
import { UpstreamError } from './upstream-error.js';
import type { OpenAICompatibleProvider } from '../../../shared/providers.js';

/**
 * Where each known provider lives and where its key comes from: the deployment's own values win,
 * then the provider's usual environment variables, then the public default.
 */

interface ProviderDefaults {
  readonly baseUrl?: string;
  readonly baseUrlEnv?: string;
  readonly keyEnv?: string;
  /** Azure takes the key in `api-key`; everyone else OpenAI-style in `Authorization: Bearer`. */
  readonly auth?: 'bearer' | 'api-key';
  /** The server takes `top_k` in chat completions (OpenAI itself rejects it). */
  readonly topK?: boolean;
  /** The server refuses `stream_options` (422, extra field) and sends a stream's usage unasked. */
  readonly noStreamOptions?: boolean;
}

/** OpenAI-compatible providers (base URLs include `/v1`, as the openai SDK's do). */
const OPENAI_COMPATIBLE: Readonly<Record<OpenAICompatibleProvider, ProviderDefaults>> = {
  openai: { baseUrl: 'https://api.openai.com/v1', baseUrlEnv: 'OPENAI_BASE_URL', keyEnv: 'OPENAI_API_KEY' },
  azure: { baseUrlEnv: 'AZURE_API_BASE', keyEnv: 'AZURE_API_KEY', auth: 'api-key' },
  ollama: { baseUrl: 'http://127.0.0.1:11434/v1', baseUrlEnv: 'OLLAMA_BASE_URL' },
  lmstudio: { baseUrl: 'http://127.0.0.1:1234/v1', baseUrlEnv: 'LM_STUDIO_API_BASE', topK: true },
  vllm: { baseUrl: 'http://127.0.0.1:8000/v1', baseUrlEnv: 'VLLM_API_BASE', topK: true },
  llamacpp: { baseUrl: 'http://127.0.0.1:8080/v1', baseUrlEnv: 'LLAMACPP_API_BASE', topK: true },
  openrouter: { baseUrl: 'https://openrouter.ai/api/v1', keyEnv: 'OPENROUTER_API_KEY', topK: true },
  gemini: { baseUrl: 'https://generativelanguage.googleapis.com/v1beta/openai', keyEnv: 'GEMINI_API_KEY' },
  groq: { baseUrl: 'https://api.groq.com/openai/v1', keyEnv: 'GROQ_API_KEY' },
  mistral: { baseUrl: 'https://api.mistral.ai/v1', keyEnv: 'MISTRAL_API_KEY', noStreamOptions: true },
  deepseek: { baseUrl: 'https://api.deepseek.com/v1', keyEnv: 'DEEPSEEK_API_KEY' },
  together_ai: { baseUrl: 'https://api.together.xyz/v1', keyEnv: 'TOGETHERAI_API_KEY', topK: true },
  xai: { baseUrl: 'https://api.x.ai/v1', keyEnv: 'XAI_API_KEY' },
  fireworks_ai: { baseUrl: 'https://api.fireworks.ai/inference/v1', keyEnv: 'FIREWORKS_AI_API_KEY', topK: true },
  // A server known only by the API it speaks: the local servers it usually is take `top_k` or ignore it.
  openai_compatible: { topK: true },
};

/** OpenAI's own API address. */
const OPENAI_HOST = 'api.openai.com';

/**
 * Whether a deployment calls OpenAI itself, told by its address (no `base_url`, or one on
 * `api.openai.com`) rather than its provider name: `provider: openai` at another address (Ollama, as
 * the example configuration has it) is a server that speaks OpenAI's API, with its own limits and
 * extensions, as `openai_compatible` is.
 */
export function callsOpenAiItself(deployment: Pick<Deployment, 'provider' | 'baseUrl'>): boolean {
  if (deployment.provider !== 'openai') return false;
  return deployment.baseUrl === undefined || new URL(deployment.baseUrl).hostname === OPENAI_HOST;
}

/** Anthropic's base URL has no `/v1` (the SDK's convention); the path adds it. */
const ANTHROPIC: ProviderDefaults = {
  baseUrl: 'https://api.anthropic.com',
  baseUrlEnv: 'ANTHROPIC_BASE_URL',
  keyEnv: 'ANTHROPIC_API_KEY',
};

/** Each provider's usual key variable (`openai`: OPENAI_API_KEY), for the providers that have one. */
export const PROVIDER_KEY_VARIABLES: ReadonlyArray<readonly [provider: string, variable: string]> = [
  ['anthropic', ANTHROPIC.keyEnv!],
  ...Object.entries(OPENAI_COMPATIBLE).flatMap(([name, defaults]) =>
    defaults.keyEnv === undefined ? [] : [[name, defaults.keyEnv] as const],
  ),
];

/** Servers on this machine whose OpenAI-compatible API is under `/v1` of their address. */
const SERVED_UNDER_V1: ReadonlySet<string> = new Set(['ollama', 'lmstudio', 'vllm', 'llamacpp']);

/**
 * A base URL as people paste it, made the one the paths are added to: Anthropic's with `/v1` or its
 * whole endpoint (`…/v1/messages`, as LiteLLM takes it) would otherwise be called at
 * `/v1/v1/messages`; a local server's bare address (`http://127.0.0.1:11434`, as Ollama prints it)
 * at `/chat/completions`, where it answers 404.
 */
export function asBaseUrl(name: string, url: string): string {
  if (name === 'anthropic') return url.replace(/\/v1(\/messages)?\/*$/, '');
  if (SERVED_UNDER_V1.has(name) && /^https?:\/\/[^/?#]+\/*$/.test(url)) return `${url.replace(/\/+$/, '')}/v1`;
  return url;
}

/** Whether a provider's default address is on the internet rather than this machine (Ollama, vLLM, ...). */
function isPublic(url: string): boolean {
  return url.startsWith('https://');
}

/** Whether two base URLs of a provider are the one address, however each was written (`…/v1`, a trailing `/`). */
export function sameAddress(provider: string, a: string, b: string | undefined): boolean {
  if (b === undefined) return false;
  const called = (url: string): string => asBaseUrl(provider, url).replace(/\/+$/, '');
  return called(a) === called(b);
}

/** An OpenAI-compatible provider's defaults, by a name from a deployment (any string). */
const defaultsOf = (name: string): ProviderDefaults | undefined =>
  Object.hasOwn(OPENAI_COMPATIBLE, name) ? OPENAI_COMPATIBLE[name as OpenAICompatibleProvider] : undefined;

/** Every provider name this gateway can call, usable as a model prefix (`ollama/llama3.2`). */
export const KNOWN_PROVIDERS: readonly string[] = ['anthropic', 'demo', ...Object.keys(OPENAI_COMPATIBLE)];

/** Resolved connection settings of a deployment. */
export interface ProviderSettings {
  readonly name: string;
  readonly baseUrl: string;
  readonly apiKey: string | undefined;
  /** What no error message may show: the API key, when there is one (derived once, not per call). */
  readonly secrets: readonly string[];
  readonly auth: 'bearer' | 'api-key';
  readonly timeoutMs: number;
  /** The deployment's shorter wait for headers and the body's first bytes, when it has one. */
  readonly headersTimeoutMs: number | undefined;
  /**
   * Whether translated requests may carry `top_k` (vLLM, llama.cpp, LM Studio, OpenRouter, Together,
   * Fireworks, and a server known only as OpenAI-compatible: see {@link callsOpenAiItself}).
   */
  readonly acceptsTopK: boolean;
  /** Whether OpenAI's own request limits hold (at most 4 stop sequences): OpenAI itself and Azure's OpenAI. */
  readonly hasOpenAiLimits: boolean;
  /** Whether a chat stream may ask for usage with `stream_options` (Mistral refuses the field). */
  readonly acceptsStreamOptions: boolean;
  /**
   * Whether calls carry the gateway's loop mark (`x-gatehouse-via`): to an address of the operator's
   * own, which may be the gateway itself; never to a provider's public one, which cannot be, and
   * need not learn which gateway its callers share.
   */
  readonly marksLoop: boolean;
}

/**
 * The one default upstream timeout (LiteLLM's): the longest wait for an upstream's headers and the
 * longest silence mid-body. Long because reasoning models may think for minutes before answering;
 * connection failures are not timeouts and fail over at once.
 */
export const DEFAULT_TIMEOUT_MS = 600_000;

/** Connection settings of a deployment, filled from the environment and defaults. */
export function providerSettings(deployment: Deployment, env: NodeJS.ProcessEnv = process.env): ProviderSettings {
  const name = deployment.provider;
  const defaults = name === 'anthropic' ? ANTHROPIC : (defaultsOf(name) ?? {});
  // An empty variable (`OPENAI_BASE_URL=` in a .env file) is unset, as applyEnv takes it.
  const providerUrl = (defaults.baseUrlEnv ? env[defaults.baseUrlEnv] || undefined : undefined) ?? defaults.baseUrl;
  const baseUrl = deployment.baseUrl ?? providerUrl;
  if (!baseUrl) {
    // Retryable: another deployment of the same model may be configured correctly.
    throw new UpstreamError(`deployment ${deployment.id} (${name}) has no base URL configured`, {
      status: 0,
      retryable: true,
      upstreamType: 'configuration',
    });
  }
  // The provider's key variable goes to the provider's own address only, as a configured provider
  // key does (resolveDeployment): a deployment pointing elsewhere (a colleague's vLLM) must not get it.
  const apiKey =
    deployment.apiKey ??
    (defaults.keyEnv !== undefined &&
    (deployment.baseUrl === undefined || sameAddress(name, deployment.baseUrl, providerUrl))
      ? env[defaults.keyEnv]
      : undefined);
  const openAiItself = callsOpenAiItself(deployment);
  return {
    name,
    baseUrl: asBaseUrl(name, baseUrl),
    apiKey,
    secrets: apiKey ? [apiKey] : [],
    auth: defaults.auth ?? 'bearer',
    timeoutMs: deployment.timeoutMs,
    headersTimeoutMs: deployment.headersTimeoutMs,
    acceptsTopK: defaults.topK === true || (name === 'openai' && !openAiItself),
    hasOpenAiLimits: name === 'azure' || openAiItself,
    acceptsStreamOptions: defaults.noStreamOptions !== true,
    marksLoop: defaults.baseUrl === undefined || !sameAddress(name, baseUrl, defaults.baseUrl) || !isPublic(baseUrl),
  };
}

/**
 * The variable a deployment's key would come from, when it goes to its provider's public address
 * (which refuses calls without one) and no key was found anywhere; undefined otherwise (a key set, a
 * provider on this machine, or an address of the operator's own, which may take none).
 */
export function missingKeyVariable(deployment: Deployment, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const defaults = deployment.provider === 'anthropic' ? ANTHROPIC : defaultsOf(deployment.provider);
  if (defaults?.keyEnv === undefined || defaults.baseUrl === undefined) return undefined;
  const settings = providerSettings(deployment, env);
  return !settings.apiKey && settings.baseUrl === defaults.baseUrl ? defaults.keyEnv : undefined;
}
