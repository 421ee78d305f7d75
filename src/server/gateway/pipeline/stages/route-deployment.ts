import { AppError, badRequest } from '../../../http/errors.js';
import { TranslationError } from '../../formats/translation-error.js';
import type { GatewayDeployment } from '../../model-registry/deployment.js';
import type { DeploymentHealthTracker } from '../../model-registry/deployment-health.js';
import { UnsupportedOperationError, UpstreamError } from '../../providers/upstream-error.js';
import type { CancelSignal } from '../../providers/types.js';
import type { RequestContext } from '../request-context.js';

/**
 * The order to try deployments in: a weighted random draw without replacement (so load follows the
 * weights and every deployment is a fallback for the others), deployments cooling down last.
 */
export function deploymentOrder(
  deployments: readonly GatewayDeployment[],
  health: DeploymentHealthTracker,
  random: () => number = Math.random,
): GatewayDeployment[] {
  if (deployments.length <= 1) return [...deployments];
  const pool = [...deployments];
  const ordered: GatewayDeployment[] = [];
  while (pool.length > 0) {
    let total = 0;
    for (const d of pool) total += d.weight;
    let pick = random() * total;
    let index = 0;
    for (; index < pool.length - 1; index += 1) {
      pick -= pool[index]!.weight;
      if (pick < 0) break;
    }
    ordered.push(pool.splice(index, 1)[0]!);
  }
  const ready = ordered.filter((d) => !health.coolingDown(d.id));
  return ready.length === ordered.length ? ordered : [...ready, ...ordered.filter((d) => health.coolingDown(d.id))];
}

/** The 502 answered for a provider failure, with the provider's status in `x-upstream-status`. */
export function upstreamFailure(error: UpstreamError, tried: number): AppError {
  const suffix = tried > 1 ? ` (after trying ${tried} deployments)` : '';
  return new AppError('upstream_error', `${error.message}${suffix}`, {
    headers: error.status > 0 ? { 'x-upstream-status': String(error.status) } : {},
  });
}

/**
 * Stage "route": calls `attempt` on each deployment in turn until one succeeds. A retryable
 * UpstreamError (429, 5xx, timeout, connection error) moves on to the next deployment; anything else,
 * or the last failure, becomes the answer. Calls only resolve before the first byte reaches the
 * client, so a retry can never follow a started stream.
 */
export async function withFallback<T>(
  ctx: RequestContext,
  deployments: readonly GatewayDeployment[],
  health: DeploymentHealthTracker,
  signal: CancelSignal,
  attempt: (deployment: GatewayDeployment) => Promise<T>,
): Promise<T> {
  if (deployments.length === 0)
    throw new AppError('model_not_allowed', `no provider serves model '${ctx.model ?? ctx.requestedModel}'`);
  const order = deploymentOrder(deployments, health);
  let last: UpstreamError | undefined;
  for (const deployment of order) {
    ctx.deployment = deployment;
    ctx.attempts += 1;
    const started = performance.now();
    try {
      const result = await attempt(deployment);
      health.success(deployment, performance.now() - started);
      return result;
    } catch (error) {
      // The client left: not the deployment's fault, and nobody is waiting for a fallback.
      if (signal.aborted) throw new ClientClosedError();
      if (error instanceof UpstreamError) {
        health.failure(deployment, performance.now() - started, error.status, error.message);
        last = error;
        if (error.retryable) continue;
        throw upstreamFailure(error, ctx.attempts);
      }
      throw translateProviderError(error);
    }
  }
  throw upstreamFailure(last!, ctx.attempts);
}

/** The client disconnected before an answer: nothing can be sent, the request is accounted as 499. */
export class ClientClosedError extends Error {
  constructor() {
    super('client closed the connection');
    this.name = 'ClientClosedError';
  }
}

/** Requests the provider cannot express are the client's mistake: 400, not 500. */
function translateProviderError(error: unknown): unknown {
  if (error instanceof UnsupportedOperationError || error instanceof TranslationError) return badRequest(error.message);
  return error;
}
