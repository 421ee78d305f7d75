import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/server/config/load.js';

/** Configuration files (and data folders) in temporary folders, all removed by `cleanup`. */
export function configFiles(prefix: string): {
  write(text: string, name?: string): string;
  folder(): string;
  cleanup(): void;
} {
  const dirs: string[] = [];
  const folder = (): string => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
  return {
    write(text, name = 'gatehouse.yaml') {
      const file = join(folder(), name);
      writeFileSync(file, text);
      return file;
    },
    folder,
    cleanup() {
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The ConfigError loading `file` raises; fails the test when the file is accepted. */
export function configRefusal(file: string): ConfigError {
  try {
    loadConfig({ file, env: {} });
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`${file} was accepted`);
}
