import type { ModelSettings } from '../../../shared/gateway-api.js';

/**
 * Why model settings' aliases cannot work as written, or undefined. Aliases resolve in one step, to a
 * name checked against the allow-list; a target not (yet) allowed is fine (its requests are refused
 * until it is), but an alias that points at itself or at another alias never resolves, and one named
 * like an allowed model would silently send that model's requests elsewhere while it stays listed.
 */
export function aliasProblem(settings: Pick<ModelSettings, 'allowed_models' | 'model_aliases'>): string | undefined {
  const allowed = new Set(settings.allowed_models);
  const aliases = settings.model_aliases;
  for (const [alias, target] of Object.entries(aliases)) {
    if (target === alias) return `model_aliases.${alias} points at itself`;
    if (allowed.has(alias))
      return `model_aliases.${alias}: '${alias}' is an allowed model, and an alias of that name would send its requests to '${target}'; rename the alias or take '${alias}' out of allowed_models`;
    if (Object.hasOwn(aliases, target))
      return `model_aliases.${alias}: '${target}' is itself an alias, and aliases resolve in one step; point '${alias}' at '${aliases[target]}'`;
  }
  return undefined;
}
