import { upstreamModelName } from './registry.js';
import type { CallContext, CancelSignal, ClientHeaders, Deployment } from './types.js';
import type { UpstreamPools } from './upstream-pools.js';

/**
 * What every provider call of one request on one deployment knows. `clientHeaders`: the client's
 * headers, only where its body is forwarded natively (a separate argument, so callers pass their
 * arguments object as it is instead of copying it).
 */
export function callContext(
  args: {
    readonly deployment: Deployment;
    readonly pools: UpstreamPools;
    readonly signal: CancelSignal;
    readonly requestId: string;
    readonly traceHeaders?: Readonly<Record<string, string>>;
  },
  clientHeaders?: ClientHeaders,
): CallContext {
  return {
    deployment: args.deployment,
    pools: args.pools,
    upstreamModel: upstreamModelName(args.deployment),
    signal: args.signal,
    requestId: args.requestId,
    clientHeaders,
    traceHeaders: args.traceHeaders,
  };
}
