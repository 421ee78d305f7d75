import { join } from 'node:path';
import { invalidConfiguration } from '../../config/load.js';
import { SealedValueUnreadable } from '../../config/secret-box.js';
import type { SettingsRepository } from './settings.repository.js';

/**
 * At start, before the deployments are read: seals the provider keys an earlier version saved in plain
 * text, and refuses to start (ConfigError naming the key file) when a sealed one cannot be opened, as
 * when the data folder was copied without `secrets.key`: the deployments would otherwise go without
 * their keys. Returns how many keys were sealed.
 */
export function sealStoredProviderKeys(repository: SettingsRepository, dataDir: string): number {
  try {
    return repository.sealPlainKeys();
  } catch (error) {
    if (!(error instanceof SealedValueUnreadable)) throw error;
    const what = 'the provider keys (api_key) of the deployments saved through PUT /internal/deployments';
    const problem =
      error.reason === 'missing'
        ? `${error.path} is missing, and the database holds ${what}, encrypted with it`
        : `${error.path} does not open ${what}: it is not the key file they were encrypted with`;
    const database = join(dataDir, 'gatehouse.db');
    throw invalidConfiguration([
      `${problem}; put back the secrets.key of the data folder this database came from (copies and backups need both files), or give the saved list up: sqlite3 ${database} "DELETE FROM gateway_settings WHERE name = 'deployments'", then save the deployments again with their keys`,
    ]);
  }
}
