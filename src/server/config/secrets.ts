import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync, chmodSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { bearerSecretProblem } from './bearer-secret.js';
import { invalidConfiguration } from './load.js';

/** A secret and where it came from, so the user can be told where to find it (never the value itself). */
export interface ResolvedSecret {
  readonly value: string;
  readonly source: 'environment' | 'generated' | 'file';
  readonly path?: string;
}

/**
 * Why an existing folder must not be made private, or undefined. A folder others may write into
 * (sticky, like /tmp, or writable by everyone) is shared on purpose: narrowing it would lock every
 * other user out of it, and while it stays shared they could replace the database or the secrets.
 * One owned by another user stays theirs to read and change whatever mode it is given.
 */
export function sharedFolderProblem(dir: string, mode: number, uid: number): string | undefined {
  if (process.platform === 'win32' || process.getuid === undefined) return undefined;
  if (uid !== process.getuid())
    return `it belongs to another user (uid ${uid}), who could read and replace the database and secrets in it; choose a folder of this user's own`;
  if ((mode & 0o1002) !== 0) {
    const shown = (mode & 0o7777).toString(8).padStart(4, '0');
    return `it is shared (mode ${shown}: others may create files in it), and making it private (0700) would lock them out; choose a folder of Gatehouse's own, such as ${join(dir, 'gatehouse')}`;
  }
  return undefined;
}

/** Creates a folder only its owner can enter, or narrows an existing one to that (mode 0700). */
export function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const { mode, uid } = statSync(dir);
  const problem = sharedFolderProblem(dir, mode, uid);
  if (problem !== undefined) throw new Error(problem);
  if ((mode & 0o777) !== 0o700) chmodSync(dir, 0o700);
}

/** Narrows an existing file to its owner (mode 0600); a missing one is left alone. */
export function makePrivateFile(path: string): void {
  if (!existsSync(path)) return;
  if ((statSync(path).mode & 0o777) !== 0o600) chmodSync(path, 0o600);
}

/**
 * Returns the secret from the environment, else from `<dataDir>/<file>`, else generates one there with
 * mode 0600. A file holding a secret that cannot be used (too short, a space) stops the start naming
 * the file: it may be a key the user wrote there and gave to clients, never to be overwritten unasked.
 * An empty file (a write cut short) is generated again.
 */
export function resolveSecret(options: {
  envValue?: string;
  dataDir: string;
  file: string;
  prefix: string;
  /** The secret, as messages name it (`the master key`). */
  what: string;
}): ResolvedSecret {
  const path = join(options.dataDir, options.file);
  // A file left from an earlier start keeps a secret even when the environment now supplies one.
  makePrivateFile(path);
  if (options.envValue) return { value: options.envValue, source: 'environment' };
  if (existsSync(path)) {
    const value = readFileSync(path, 'utf8').trim();
    if (value !== '') {
      const problem = bearerSecretProblem(options.what, value);
      if (problem === undefined) return { value, source: 'file', path };
      throw invalidConfiguration([`${path}: ${problem} (delete the file, and Gatehouse generates a new one)`]);
    }
  }
  makePrivateDir(options.dataDir);
  const value = `${options.prefix}${randomBytes(24).toString('base64url')}`;
  writeFileSync(path, `${value}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return { value, source: 'generated', path };
}
