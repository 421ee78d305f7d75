import type { Config } from '../../config/schema.js';
import type { KeysService } from './keys.service.js';

/** The sections of the configuration file that hold rules per API key, each a map keyed by key id. */
const KEY_RULE_SECTIONS = ['pii', 'content_policy', 'cache'] as const;

/**
 * Rules of the configuration file for API keys that do not exist: such a rule applies to no request.
 * Keys live in the database, so this cannot be part of the file's validation (a fresh data folder has
 * no keys yet, and the start must not fail for it); the gateway says so in its log at start instead.
 * `rag.keys` may name a key by id or by name.
 */
export function unknownKeyRules(
  config: Pick<Config, (typeof KEY_RULE_SECTIONS)[number] | 'rag'>,
  keys: Pick<KeysService, 'get' | 'list'>,
): string[] {
  const problems: string[] = [];
  for (const section of KEY_RULE_SECTIONS)
    for (const id of Object.keys(config[section].keys ?? {}))
      if (keys.get(id) === undefined)
        problems.push(
          `${section}.keys.${id}: no API key with id '${id}', so this rule applies to no request (keys are named by id: GET /internal/api-keys)`,
        );
  const ragKeys = Object.keys(config.rag.keys);
  if (ragKeys.length > 0) {
    const names = new Set(keys.list({ includeRevoked: true }).map((row) => row.name));
    for (const key of ragKeys)
      if (keys.get(key) === undefined && !names.has(key))
        problems.push(
          `rag.keys.${key}: no API key with that id or name, so these collections are searched for no request`,
        );
  }
  return problems;
}
