import { callContext } from './call-context.js';
import { responsesIssuer, usesNativeResponses } from './native-responses.js';
import { sameIssuer } from '../responses/item-issuer.js';
import { resolveProvider } from './registry.js';
import type { CancelSignal, Deployment } from './types.js';
import type { UpstreamPools } from './upstream-pools.js';

/**
 * Deletes a response at the Responses API that answered it (`issuer`: its base URL and the key it was
 * called with, see itemIssuer), which was told to keep it too, through a deployment that calls that
 * API with that very key: another key of the same address may be another project, which holds no such
 * response. `false` when no deployment calls it with that key any more (nothing can reach it); rejects
 * with UpstreamError when the provider refuses.
 */
export async function deleteKeptResponse(args: {
  readonly id: string;
  readonly issuer: string;
  readonly deployments: readonly Deployment[];
  readonly pools: UpstreamPools;
  readonly signal: CancelSignal;
  readonly requestId: string;
}): Promise<boolean> {
  const deployment = args.deployments.find(
    (candidate) => usesNativeResponses(candidate) && sameIssuer(args.issuer, responsesIssuer(candidate)),
  );
  if (deployment === undefined) return false;
  const provider = resolveProvider(deployment).chat;
  if (provider.kind !== 'native' || provider.deleteResponse === undefined) return false;
  await provider.deleteResponse(args.id, callContext({ ...args, deployment }));
  return true;
}
