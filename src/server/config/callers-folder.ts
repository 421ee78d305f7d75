import { dirname } from 'node:path';

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
