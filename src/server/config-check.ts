import type { Config } from './config/schema.js';
import { openDatabase } from './db/connection.js';
import { ModelRegistry } from './gateway/model-registry/model-registry.js';
import { SettingsRepository } from './gateway/model-registry/settings.repository.js';
import { modelWarnings } from './gateway/model-registry/model-warnings.js';
import { deploymentListProblems, fileDeploymentSources } from './gateway/model-registry/deployment-list-check.js';
import { ssoSetupIssues } from './gateway/sso/sso-setup.js';
import { masterKeyIssue } from './start.js';
import { networkWarnings } from './network-warnings.js';
import { storeTokenProblems } from './store/store-tokens.js';

/**
 * What a start would refuse in a configuration that loaded, short of what only a start can find (the
 * data folder, the ports, the database): the deployments the provider layer could not call, an
 * unusable master key, store tokens and sign-in secrets missing from the environment. For
 * `npm run serve -- --check`, which touches neither the data folder nor a port.
 */
export function configurationIssues(config: Config, env: NodeJS.ProcessEnv): string[] {
  const masterKey = masterKeyIssue(env);
  return [
    ...deploymentListProblems(config.deployments, fileDeploymentSources(config, env)).problems,
    ...(masterKey === undefined ? [] : [masterKey]),
    ...storeTokenProblems(config, env),
    ...ssoSetupIssues(config, env),
  ];
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
    const registry = new ModelRegistry({ config, repository: new SettingsRepository(database.db), env });
    return [...networkWarnings(config).map((warning) => warning.message), ...modelWarnings(registry, config, env)];
  } finally {
    database.close();
  }
}
