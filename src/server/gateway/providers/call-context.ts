import type { IrRequest } from '../formats/ir.js';
import { upstreamModelName } from './registry.js';
import type { CallContext, CancelSignal, ClientHeaders, Deployment, UpstreamReport } from './types.js';
import type { UpstreamPools } from './upstream-pools.js';

/** What every endpoint's call on one deployment is given, besides its body. */
export interface AttemptArgs {
  readonly deployment: Deployment;
  /** The keep-alive connection pools of the gateway (closed with it). */
  readonly pools: UpstreamPools;
  /** Aborts the upstream request (the client disconnected). */
  readonly signal: CancelSignal;
  readonly requestId: string;
  /** Trace context for the upstream (see CallContext). */
  readonly traceHeaders?: Readonly<Record<string, string>>;
  /** Receives the provider's request id of a 2xx answer (see UpstreamReport). */
  readonly report?: UpstreamReport;
  /**
   * The model's `per_model_max_tokens`, when it has one: what a translation may ask for in all, the
   * thinking it adds included (thinking tokens are billed as output), not only the answer.
   */
  readonly outputCap?: number;
}

/**
 * What every provider call of one request on one deployment knows. `clientHeaders`: the client's
 * headers, only where its body is forwarded natively (a separate argument, so callers pass their
 * arguments object as it is instead of copying it).
 */
export function callContext(args: AttemptArgs, clientHeaders?: ClientHeaders): CallContext {
  return {
    deployment: args.deployment,
    pools: args.pools,
    upstreamModel: upstreamModelName(args.deployment),
    signal: args.signal,
    requestId: args.requestId,
    clientHeaders,
    traceHeaders: args.traceHeaders,
    report: args.report,
  };
}

/** `request` bounded by the model's cap on its whole output, when it has one. */
export function withOutputCap(request: IrRequest, outputCap: number | undefined): IrRequest {
  return outputCap === undefined ? request : { ...request, outputCap };
}
