import type { Config } from '../../config/schema.js';
import { fileDollarBudgets, unmatchedPrices, unpricedUnderBudgets } from '../accounting/unmatched-prices.js';
import type { ModelRegistry } from './model-registry.js';
import { issuedKeysSentUpstream } from './issued-keys-upstream.js';
import { unreachableDeployments } from './unreachable-deployments.js';
import { unservedModels } from './unserved-models.js';
import { unusedProviderKeys } from './unused-provider-keys.js';

/**
 * What the start says about the models, deployments and prices in force: a deployment no request
 * reaches, a key variable the admin API may not read, a model no provider serves, a provider key no
 * model uses, a Gatehouse key given as a provider's, a price no request is priced by, a model the file's dollar budgets cannot stop (it has
 * no price). The start logs them; `--check` prints them for the file alone.
 */
export function modelWarnings(registry: ModelRegistry, config: Config, env: NodeJS.ProcessEnv): string[] {
  return [
    ...unreachableDeployments(registry, config.rag.embedding_model),
    ...registry.unreadKeyVariables(),
    ...unservedModels(registry, env),
    ...unusedProviderKeys(registry, env),
    ...issuedKeysSentUpstream(registry, env),
    // The prices in force: the file's, or those saved through the admin API.
    ...unmatchedPrices(registry.settings().pricing, registry),
    ...unpricedUnderBudgets(fileDollarBudgets(config.limits), registry.settings().pricing, registry),
  ];
}
