import type { ModelRegistry } from './model-registry.js';

/**
 * What the start says when model settings or deployments saved through the admin API replace the
 * file's: the warnings about models and deployments that follow name `llm.allowed_models` and
 * `deployments[...]`, and without this line read as if the file said so, though it says otherwise.
 */
export function adminSavedSettings(registry: Pick<ModelRegistry, 'settings' | 'deploymentsSource'>): string[] {
  const lines: string[] = [];
  const settings = registry.settings();
  if (settings.source === 'database')
    lines.push(
      `llm: the model settings in force (allowed models, aliases, caps) were saved through the admin API at ${when(settings.updatedAt)}; the file's llm section is not read until PUT /internal/models {"reset": true}`,
    );
  const deployments = registry.deploymentsSource();
  if (deployments.source === 'database')
    lines.push(
      `deployments: the list in force was saved through PUT /internal/deployments at ${when(deployments.updatedAt)}; the file's deployments are not read until PUT /internal/deployments {"reset": true}`,
    );
  return lines;
}

function when(updatedAt: number | null): string {
  return updatedAt === null ? 'an unknown time' : new Date(updatedAt).toISOString();
}
