import { errorDetail, redact, transportError } from './http-client.js';
import type { ProviderSettings } from './provider-settings.js';
import type { CancelSignal } from './types.js';
import { exchange } from './upstream-exchange.js';
import { UpstreamError } from './upstream-error.js';
import type { UpstreamPools } from './upstream-pools.js';
import { GATEHOUSE_VERSION } from '../../version.js';
import { ANTHROPIC_VERSION } from './anthropic/anthropic-provider.js';
import { editDistance } from '../../../shared/closest-name.js';

/**
 * A provider's model list (`GET {base}/models`, Anthropic's `GET /v1/models`): the one call that
 * tells whether an address and a key work without costing a token.
 */

/** The most of a model list read: OpenRouter's, with every model's description, is a few MiB. */
const MAX_LIST_BYTES = 16 * 1024 * 1024;
/** The most of an error body read: providers' are a few hundred bytes. */
const MAX_ERROR_BYTES = 64 * 1024;
/** Anthropic pages its list (20 by default); one page of its largest size holds every model. */
const ANTHROPIC_PAGE = '?limit=1000';

/** A model list as the provider answered it. */
export interface ModelList {
  readonly status: number;
  readonly ids: readonly string[];
}

/** Where the list lives for a provider: the path added to its base URL. */
export function modelListPath(settings: ProviderSettings): string {
  return settings.name === 'anthropic' ? `/v1/models${ANTHROPIC_PAGE}` : '/models';
}

/** The credentials and version headers the provider's chat calls carry, for a GET. */
function listHeaders(settings: ProviderSettings, pools: UpstreamPools, requestId: string): Record<string, string> {
  const headers: Record<string, string> = {
    accept: 'application/json',
    'accept-encoding': 'identity',
    'user-agent': `gatehouse/${GATEHOUSE_VERSION}`,
    'x-request-id': requestId,
  };
  if (settings.marksLoop) headers['x-gatehouse-via'] = pools.loopMark;
  if (settings.name === 'anthropic') {
    headers['anthropic-version'] = ANTHROPIC_VERSION;
    if (settings.apiKey) headers['x-api-key'] = settings.apiKey;
  } else if (settings.apiKey) {
    if (settings.auth === 'api-key') headers['api-key'] = settings.apiKey;
    else headers.authorization = `Bearer ${settings.apiKey}`;
  }
  return headers;
}

/**
 * Reads the model list through the gateway's pools. A non-2xx answer, a transport failure or a
 * timeout rejects with an UpstreamError whose message is redacted as relayed errors are.
 */
export async function fetchModelList(
  settings: ProviderSettings,
  pools: UpstreamPools,
  signal: CancelSignal,
  timeoutMs: number,
  requestId: string,
): Promise<ModelList> {
  const call = { provider: settings.name, signal, secrets: settings.secrets };
  const target = pools.target(settings.baseUrl, modelListPath(settings));
  let text: string;
  let status: number;
  try {
    const response = await exchange(
      pools.poolFor(target.origin),
      { method: 'GET', path: target.path, headers: listHeaders(settings, pools, requestId) },
      signal,
      timeoutMs,
    );
    status = response.status;
    const success = status >= 200 && status < 300;
    response.body.limitTo(success ? MAX_LIST_BYTES : MAX_ERROR_BYTES);
    text = await response.body.text();
    if (!success) {
      const detail = errorDetail(text);
      throw new UpstreamError(
        redact(
          `${settings.name} upstream returned ${status}${detail.type ? ` ${detail.type}` : ''}: ${detail.message}`,
          [...settings.secrets],
        ),
        { status, upstreamType: detail.type },
      );
    }
  } catch (error) {
    throw transportError(error, call);
  }
  return { status, ids: listedIds(text, settings, status) };
}

/** The model ids of a list answer (`{data: [{id}]}`, Ollama's native `{models: [{name}]}` too). */
function listedIds(text: string, settings: ProviderSettings, status: number): string[] {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new UpstreamError(
      redact(
        `${settings.name} upstream answered its model list with invalid JSON: ${text.slice(0, 200)}`,
        settings.secrets,
      ),
      { status, upstreamType: 'invalid_response' },
    );
  }
  const record = (body ?? {}) as { data?: unknown; models?: unknown };
  const entries = Array.isArray(record.data) ? record.data : Array.isArray(record.models) ? record.models : undefined;
  if (entries === undefined)
    throw new UpstreamError(
      `${settings.name} upstream answered its model list with JSON that holds no list of models`,
      {
        status,
        upstreamType: 'invalid_response',
      },
    );
  return entries.flatMap((entry: unknown) => {
    const { id, name } = (entry ?? {}) as { id?: unknown; name?: unknown };
    const value = typeof id === 'string' ? id : name;
    return typeof value === 'string' ? [value] : [];
  });
}

/**
 * Whether a list names the model as the deployment calls it. Lists write some names their own way:
 * Gemini's OpenAI API prefixes `models/`, Ollama's lists the default tag (`llama3.2:latest` for
 * `llama3.2`), and Anthropic's lists dated ids only, so an alias (`claude-3-5-haiku-latest`) is
 * listed when a dated version of that name is.
 */
export function isListed(model: string, ids: readonly string[]): boolean {
  const alias = /-latest$/.test(model) ? model.replace(/-latest$/, '-') : undefined;
  return ids.some((id) => {
    const plain = id.replace(/^models\//, '');
    return plain === model || plain === `${model}:latest` || (alias !== undefined && plain.startsWith(alias));
  });
}

/** Up to `count` listed ids closest in spelling to the model, closest first. */
export function closestIds(model: string, ids: readonly string[], count = 3): string[] {
  const scored = [...new Set(ids)].map((id) => ({ id, distance: editDistance(model, id) }));
  scored.sort((a, b) => a.distance - b.distance || a.id.localeCompare(b.id));
  return scored.slice(0, count).map((entry) => entry.id);
}
