import type { Config } from './config/schema.js';
import { deploymentListProblems, fileDeploymentSources } from './gateway/model-registry/deployment-list-check.js';
import { ssoSetupIssues } from './gateway/sso/sso-setup.js';
import { masterKeyIssue } from './start.js';
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
