import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';

/** A secret and where it came from, so the user can be told where to find it (never the value itself). */
export interface ResolvedSecret {
  readonly value: string;
  readonly source: 'environment' | 'generated' | 'file';
  readonly path?: string;
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
  if (options.envValue) return { value: options.envValue, source: 'environment' };
  const path = join(options.dataDir, options.file);
  if (existsSync(path)) {
    const value = readFileSync(path, 'utf8').trim();
    if (value.length >= 16) return { value, source: 'file', path };
  }
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const value = `${options.prefix}${randomBytes(24).toString('base64url')}`;
  writeFileSync(path, `${value}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return { value, source: 'generated', path };
}
