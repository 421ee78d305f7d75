import type { CachePurge, CacheSettingsUpdate } from '../../../shared/cache-api.js';
import { GatewayError } from '../gateway-error.js';
import type { KeysService } from '../keys/keys.service.js';
import type { ModelRegistry } from '../model-registry/model-registry.js';
import { modelNameProblem } from '../model-registry/model-name-problem.js';
import type { PrincipalsService } from '../principals/principals.service.js';

/** Where the names the cache's admin API is given are looked up. */
export interface CacheNameSources {
  readonly registry: Pick<ModelRegistry, 'isAllowed' | 'rewriteAlias'>;
  readonly keys: Pick<KeysService, 'get'>;
  readonly principals: Pick<PrincipalsService, 'team'>;
}

/**
 * The cache admin API's checks of the names it is given, beyond their shape (the schemas): rules and
 * purges must name models, keys and teams that exist, so a typo is refused rather than kept as a rule
 * that never applies or answered with an empty purge.
 */
export class CacheNames {
  constructor(private readonly sources: CacheNameSources) {}

  /**
   * New rules name allowed (canonical) models and existing keys: 400 naming the field otherwise, as the
   * guardrails settings do. Rules already in force are left as they are, so a model taken off the
   * allow-list does not block every later change of the settings that still hold its rule.
   */
  checkRules(
    update: Pick<CacheSettingsUpdate, 'models' | 'keys'>,
    inForce: Pick<CacheSettingsUpdate, 'models' | 'keys'>,
  ): void {
    for (const model of Object.keys(update.models ?? {})) {
      if (inForce.models !== undefined && Object.hasOwn(inForce.models, model)) continue;
      const problem = modelNameProblem(this.sources.registry, model);
      if (problem !== undefined) throw new GatewayError('invalid', `models.${model}: ${problem}`);
    }
    for (const id of Object.keys(update.keys ?? {})) {
      if (inForce.keys !== undefined && Object.hasOwn(inForce.keys, id)) continue;
      if (this.sources.keys.get(id) === undefined)
        throw new GatewayError('invalid', `keys.${id}: no API key with id '${id}'`);
    }
  }

  /**
   * A purge names what it forgets: an unknown team, key or model is 404 naming the field, as reading an
   * unknown one is. A name the cache still holds answers of (a team deleted since, a model taken off
   * the allow-list) is accepted, so those answers can still be forgotten. An alias is 400: answers
   * are kept under the model it names.
   */
  checkPurge(filter: CachePurge, holds: (filter: CachePurge) => boolean): void {
    const { team, key_id: keyId, model } = filter;
    if (team !== undefined && this.sources.principals.team(team) === undefined && !holds({ team }))
      throw new GatewayError('not_found', `team: no team with id '${team}'`);
    if (keyId !== undefined && this.sources.keys.get(keyId) === undefined && !holds({ key_id: keyId }))
      throw new GatewayError('not_found', `key_id: no API key with id '${keyId}'`);
    if (model === undefined || holds({ model })) return;
    const problem = modelNameProblem(this.sources.registry, model);
    if (problem === undefined) return;
    const alias = this.sources.registry.rewriteAlias(model) !== model;
    throw new GatewayError(alias ? 'invalid' : 'not_found', `model: ${problem}`);
  }
}
