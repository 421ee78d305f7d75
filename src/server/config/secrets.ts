import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync, chmodSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** A secret and where it came from, so the user can be told where to find it (never the value itself). */
export interface ResolvedSecret {
  readonly value: string;
  readonly source: 'environment' | 'generated' | 'file';
  readonly path?: string;
}

/** Creates a folder only its owner can enter, or narrows an existing one to that (mode 0700). */
export function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if ((statSync(dir).mode & 0o777) !== 0o700) chmodSync(dir, 0o700);
}

/** Narrows an existing file to its owner (mode 0600); a missing one is left alone. */
export function makePrivateFile(path: string): void {
  if (!existsSync(path)) return;
  if ((statSync(path).mode & 0o777) !== 0o600) chmodSync(path, 0o600);
}

/**
 * Returns the secret from the environment, else from `<dataDir>/<file>`, else generates one there with mode 0600.
 */
export function resolveSecret(options: {
  envValue?: string;
  dataDir: string;
  file: string;
  prefix: string;
}): ResolvedSecret {
  const path = join(options.dataDir, options.file);
  // A file left from an earlier start keeps a secret even when the environment now supplies one.
  makePrivateFile(path);
  if (options.envValue) return { value: options.envValue, source: 'environment' };
  if (existsSync(path)) {
    const value = readFileSync(path, 'utf8').trim();
    if (value.length >= 16) return { value, source: 'file', path };
  }
  makePrivateDir(options.dataDir);
  const value = `${options.prefix}${randomBytes(24).toString('base64url')}`;
  writeFileSync(path, `${value}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return { value, source: 'generated', path };
}
