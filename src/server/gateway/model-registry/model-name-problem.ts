import type { ModelRegistry } from './model-registry.js';

/**
 * Why settings cannot name `model`, or undefined when it is an allowed model. Settings are keyed by
 * canonical names (requests reach them after the alias rewrite), so an alias is refused with its target.
 */
export function modelNameProblem(
  registry: Pick<ModelRegistry, 'isAllowed' | 'rewriteAlias'>,
  model: string,
): string | undefined {
  if (registry.isAllowed(model)) return undefined;
  const target = registry.rewriteAlias(model);
  const hint = target !== model ? `; it is an alias: name its target '${target}'` : ' (see GET /internal/models)';
  return `'${model}' is not an allowed model${hint}`;
}
