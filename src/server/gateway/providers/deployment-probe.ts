import type { DeploymentTestMode } from '../../../shared/gateway-api.js';
import { closestIds, fetchModelList, isListed, modelListPath } from './deployment-probe-list.js';
import {
  chatMessage,
  failureMessage,
  listedMessage,
  unlistedMessage,
  type ProbeSubject,
} from './deployment-probe-messages.js';
import { providerSettings, type ProviderSettings } from './provider-settings.js';
import { resolveProvider, upstreamModelName } from './registry.js';
import type { CallContext, Deployment, NativeChatProvider } from './types.js';
import { UpstreamError } from './upstream-error.js';
import type { UpstreamPools } from './upstream-pools.js';

/**
 * One small real call to a deployment's provider, through the provider layer and the gateway's pools,
 * outside the request pipeline: it counts toward neither the deployment's health nor usage, and a
 * test of an unsaved form touches nothing the gateway routes with.
 */

/** The longest a test waits for the provider, whatever the deployment's own (long) timeout. */
export const PROBE_TIMEOUT_MS = 10_000;

/** What a connection test found. */
export interface ProbeResult {
  readonly ok: boolean;
  /** The upstream's HTTP status; null when none answered (or nothing was called, for the demo provider). */
  readonly status: number | null;
  readonly latencyMs: number;
  readonly modelListed: boolean | null;
  readonly mode: DeploymentTestMode;
  readonly message: string;
}

/** How to probe. */
export interface ProbeOptions {
  readonly mode: DeploymentTestMode;
  readonly requestId: string;
  /** Where the key came from, in words, when one is set (`the stored key`); see ProbeSubject.key. */
  readonly keyLabel: string;
}

/** Tests a deployment; never throws for what the provider answered (that is the result). */
export async function probeDeployment(
  deployment: Deployment,
  pools: UpstreamPools,
  options: ProbeOptions,
): Promise<ProbeResult> {
  const started = performance.now();
  const done = (result: Omit<ProbeResult, 'latencyMs'>): ProbeResult => ({
    ...result,
    latencyMs: Math.round(performance.now() - started),
  });
  // The provider's calls bounded by the test's short wait, not the deployment's (long) timeout.
  const bounded: Deployment = {
    ...deployment,
    timeoutMs: Math.min(deployment.timeoutMs, PROBE_TIMEOUT_MS),
    headersTimeoutMs: undefined,
  };
  const provider = resolveProvider(bounded);
  if (provider.chat.kind === 'ir')
    return done({
      ok: true,
      status: null,
      modelListed: null,
      mode: options.mode,
      message: 'The demo provider answers inside the gateway: there is no upstream to connect to.',
    });
  const settings = providerSettings(bounded);
  const timeoutMs = bounded.timeoutMs;
  const subject: ProbeSubject = {
    url: settings.baseUrl,
    upstreamModel: upstreamModelName(deployment),
    key: settings.apiKey ? options.keyLabel : undefined,
    timeoutMs,
  };
  // The whole test is bounded, connecting included (the exchange's own timeout starts once sent).
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const call = { settings, pools, signal: controller.signal, timeoutMs, requestId: options.requestId, subject };
  try {
    // Azure's classic API (an api_version) names deployments in the path and lists none of them.
    const listless = settings.name === 'azure' && deployment.apiVersion !== undefined;
    if (options.mode === 'chat' || listless)
      return done(await chatProbe(bounded, provider.chat, call, listless ? 'Azure lists no deployments:' : undefined));
    return done(await listProbe(bounded, provider.chat, call));
  } finally {
    clearTimeout(timer);
  }
}

interface ProbeCall {
  readonly settings: ProviderSettings;
  readonly pools: UpstreamPools;
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
  readonly requestId: string;
  readonly subject: ProbeSubject;
}

type Found = Omit<ProbeResult, 'latencyMs'>;

async function listProbe(deployment: Deployment, chat: NativeChatProvider, call: ProbeCall): Promise<Found> {
  const subject = {
    ...call.subject,
    url: `${call.settings.baseUrl.replace(/\/+$/, '')}${modelListPath(call.settings).split('?')[0]}`,
  };
  try {
    const list = await fetchModelList(call.settings, call.pools, call.signal, call.timeoutMs, call.requestId);
    const listed = isListed(subject.upstreamModel, list.ids);
    return {
      ok: listed,
      status: list.status,
      modelListed: listed,
      mode: 'models',
      message: listed
        ? listedMessage(subject, list.ids.length)
        : unlistedMessage(subject, list.ids.length, closestIds(subject.upstreamModel, list.ids)),
    };
  } catch (error) {
    const failure = asUpstreamError(error);
    // A server without a model list (some OpenAI-compatible ones): a 1-token chat says the rest.
    if (failure.status === 404 || failure.status === 405)
      return chatProbe(deployment, chat, call, `${subject.url} answered ${failure.status} (no model list there):`);
    return {
      ok: false,
      status: failure.status || null,
      modelListed: null,
      mode: 'models',
      message: failureMessage(failure, subject),
    };
  }
}

/** A 1-token chat in the provider's own format. */
async function chatProbe(
  deployment: Deployment,
  chat: NativeChatProvider,
  call: ProbeCall,
  why: string | undefined,
): Promise<Found> {
  const upstreamModel = call.subject.upstreamModel;
  const messages = [{ role: 'user', content: 'Reply with OK.' }];
  const body: Record<string, unknown> = { model: upstreamModel, max_tokens: 1, messages };
  const context: CallContext = {
    deployment,
    pools: call.pools,
    upstreamModel,
    signal: call.signal,
    requestId: call.requestId,
  };
  // The provider's own adjustments (a reasoning model takes max_completion_tokens).
  chat.adaptNative?.(body, context);
  try {
    await chat.send(body, context);
    return { ok: true, status: 200, modelListed: null, mode: 'chat', message: chatMessage(call.subject, why) };
  } catch (error) {
    const failure = asUpstreamError(error);
    const message = failureMessage(failure, call.subject);
    return {
      ok: false,
      status: failure.status || null,
      modelListed: null,
      mode: 'chat',
      message: why !== undefined ? `${why} ${message}` : message,
    };
  }
}

/** Anything the provider layer threw as an UpstreamError (it throws nothing else for a provider's answer). */
function asUpstreamError(error: unknown): UpstreamError {
  if (error instanceof UpstreamError) return error;
  throw error;
}
