import { dirname, resolve } from 'node:path';
import { loadConfig, type LoadedConfig } from './load.js';

/**
 * The folder relative paths are the caller's from. npm runs a script in the package's folder, not the
 * one `npm run serve -- --config gatehouse.yaml` was typed in, which it names in INIT_CWD; but every
 * process an npm script starts inherits INIT_CWD, so it counts only where this process runs in the
 * folder of the package npm ran.
 */
export function callersFolder(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): string {
  const { INIT_CWD: typedIn, npm_package_json: packageJson } = env;
  const byNpm = typedIn !== undefined && packageJson !== undefined && dirname(packageJson) === cwd;
  return byNpm ? typedIn : cwd;
}

/**
 * The configuration as a command typed in a terminal reads it: `file` (a `--config`) or
 * `GATEHOUSE_CONFIG`, and a relative `GATEHOUSE_DATA_DIR`, taken from the caller's folder. The
 * headless command and the desktop app read it alike, so both find the same file and database.
 */
export function loadCallersConfig(file?: string, env: NodeJS.ProcessEnv = process.env): LoadedConfig {
  const cwd = callersFolder(env);
  const named = file ?? env.GATEHOUSE_CONFIG;
  return loadConfig({ env, cwd, ...(named ? { file: resolve(cwd, named) } : {}) });
}
