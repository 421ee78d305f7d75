import type { ModelObject, ModelRegistry } from './model-registry.js';

/**
 * The models a caller may name, as `/v1/models` lists them: every allowed model, or for a key limited
 * to some models, those of them it lists (in the allow-list's order) and then the aliases it lists
 * whose target is allowed. A key limited to an alias may call the alias only (not its target by its
 * own name), so the alias is what it is shown, under its target's owner.
 */
export function modelsNamedBy(registry: ModelRegistry, keyModels: ReadonlySet<string> | null): readonly ModelObject[] {
  const all = registry.modelList().data;
  if (keyModels === null) return all;
  const listed = all.filter((model) => keyModels.has(model.id));
  for (const name of keyModels) {
    const resolution = registry.resolve(name);
    if (!resolution.ok || resolution.aliasOf === undefined) continue;
    const target = all.find((model) => model.id === resolution.model);
    if (target !== undefined) listed.push({ ...target, id: name });
  }
  return listed;
}
