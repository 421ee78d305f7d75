import { accessSync, constants, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { DATA_DIR_SETTING } from './config/data-dir.js';
import { sharedFolderProblem } from './config/secrets.js';
import type { Config } from './config/schema.js';
import { openDatabase } from './db/connection.js';
import { ModelRegistry } from './gateway/model-registry/model-registry.js';
import { SettingsRepository } from './gateway/model-registry/settings.repository.js';
import { ModelFirstSeenRepository } from './gateway/model-registry/model-first-seen.repository.js';
import { modelWarnings } from './gateway/model-registry/model-warnings.js';
import { deploymentListProblems, fileDeploymentSources } from './gateway/model-registry/deployment-list-check.js';
import { ssoSetupIssues } from './gateway/sso/sso-setup.js';
import { masterKeyIssue } from './start.js';
import { networkWarnings } from './network-warnings.js';
import { storeTokenProblems } from './store/store-tokens.js';

/**
 * What a start would refuse in a configuration that loaded, short of what only a start can find (a
 * held data folder, the ports, the database): the deployments the provider layer could not call, an
 * unusable master key, store tokens and sign-in secrets missing from the environment, a data folder
 * the start would not use. For `npm run serve -- --check`, which writes nothing and opens no port.
 */
export function configurationIssues(config: Config, env: NodeJS.ProcessEnv): string[] {
  const masterKey = masterKeyIssue(env);
  return [
    ...deploymentListProblems(config.deployments, fileDeploymentSources(config, env)).problems,
    ...(masterKey === undefined ? [] : [masterKey]),
    ...storeTokenProblems(config, env),
    ...ssoSetupIssues(config, env),
    ...dataFolderIssues(config.server.data_dir!),
  ];
}

/**
 * What the start would refuse in the data folder, found by reading only (nothing is created or
 * changed): a folder others may write into or another user's (the start's rules, in
 * config/secrets.ts), a path through a file, a missing folder whose nearest parent cannot be written.
 * A folder another server holds is left to the start: judging the hold is the start's own business.
 */
export function dataFolderIssues(dataDir: string): string[] {
  const problem = (why: string): string[] => [`cannot use the data folder ${dataDir} (${DATA_DIR_SETTING}): ${why}`];
  let existing = dataDir;
  for (;;) {
    let stats;
    try {
      stats = statSync(existing);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOTDIR') return problem('part of that path is a file, not a folder');
      if (code !== 'ENOENT' || dirname(existing) === existing) return problem((error as Error).message);
      existing = dirname(existing);
      continue;
    }
    if (!stats.isDirectory()) return problem('part of that path is a file, not a folder');
    if (existing === dataDir) {
      const shared = sharedFolderProblem(dataDir, stats.mode, stats.uid);
      return shared === undefined ? [] : problem(shared);
    }
    try {
      accessSync(existing, constants.W_OK | constants.X_OK);
      return [];
    } catch {
      return problem(`it does not exist, and ${existing} may not be written to create it`);
    }
  }
}

/**
 * The warnings a start logs about who can reach the servers (networkWarnings) and about models,
 * deployments and prices, as the file alone has them (the database, where the admin API may have
 * saved others, is not opened): a model no provider serves, a deployment no request reaches, a price
 * no request is priced by, a model no dollar budget can stop.
 */
export function configurationWarnings(config: Config, env: NodeJS.ProcessEnv): string[] {
  const database = openDatabase(':memory:');
  try {
    const registry = new ModelRegistry({
      config,
      repository: new SettingsRepository(database.db),
      firstSeen: new ModelFirstSeenRepository(database.db),
      env,
    });
    return [...networkWarnings(config).map((warning) => warning.message), ...modelWarnings(registry, config, env)];
  } finally {
    database.close();
  }
}
