import { upstreamModelName } from './registry.js';
import type { CallContext, CancelSignal, ClientHeaders, Deployment } from './types.js';
import type { UpstreamPools } from './upstream-pools.js';

/** What every provider call of one request on one deployment knows. */
export function callContext(args: {
  readonly deployment: Deployment;
  readonly pools: UpstreamPools;
  readonly signal: CancelSignal;
  readonly requestId: string;
  /** The client's headers, only where its body is forwarded natively. */
  readonly clientHeaders?: ClientHeaders;
  readonly traceHeaders?: Readonly<Record<string, string>>;
}): CallContext {
  return {
    deployment: args.deployment,
    pools: args.pools,
    upstreamModel: upstreamModelName(args.deployment),
    signal: args.signal,
    requestId: args.requestId,
    clientHeaders: args.clientHeaders,
    traceHeaders: args.traceHeaders,
  };
}
