import { cacheSettingsSchema } from '../../../shared/cache-api.js';
import type { ModelRegistry } from './model-registry.js';
import type { SettingsRepository } from './settings.repository.js';

/**
 * What the start says when settings saved through the admin API replace the file's: an operator who
 * edits the file and restarts would otherwise believe the file in force. For models and deployments,
 * the warnings that follow name `llm.allowed_models` and `deployments[...]`, and without this line read
 * as if the file said so; for pii, content_policy and cache, a stricter file would silently not apply.
 */
export function adminSavedSettings(
  registry: Pick<ModelRegistry, 'settings' | 'deploymentsSource'>,
  stored: Pick<SettingsRepository, 'get'>,
): string[] {
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
  const pii = stored.get('pii');
  if (pii !== undefined)
    lines.push(
      `pii: the PII settings in force were saved through PUT /internal/pii at ${when(pii.updatedAt)}; the file's pii section is not read until PUT /internal/pii {"reset": true}`,
    );
  const policy = stored.get('content_policy');
  if (policy !== undefined)
    lines.push(
      `content_policy: the content policy in force was saved through PUT /internal/content-policy at ${when(policy.updatedAt)}; the file's content_policy section is not read until PUT /internal/content-policy {"reset": true}`,
    );
  const cache = stored.get<unknown>('cache');
  // One that no longer validates is not in force: the cache says so itself and uses the file's.
  if (cache !== undefined && cacheSettingsSchema.safeParse(cache.value).success)
    lines.push(
      `cache: the cache settings in force were saved through PUT /internal/cache at ${when(cache.updatedAt)}; the file's cache section is not read until PUT /internal/cache {"reset": true}`,
    );
  return lines;
}

function when(updatedAt: number | null): string {
  return updatedAt === null ? 'an unknown time' : new Date(updatedAt).toISOString();
}
