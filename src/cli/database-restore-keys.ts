import { chmodSync, copyFileSync, existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { KEY_FILES } from './database-backup-with-keys.js';

/** A key file of a backup folder and what putting it back does to the data folder's file of that name. */
export interface KeyFileStep {
  readonly name: string;
  readonly from: string;
  readonly to: string;
  /** `new`: the folder has none; `same`: it has this one already; `different`: it has another one. */
  readonly state: 'new' | 'same' | 'different';
}

/** What putting the key files back did. */
export interface KeyFilesPutBack {
  /** The data folder's files written from the backup (mode 0600). */
  readonly putBack: readonly string[];
  /** The folder's different key files, moved aside (never deleted). */
  readonly keptAside: readonly string[];
  /** The folder's files that were the backup's already, left as they were. */
  readonly unchanged: readonly string[];
}

/**
 * The key files `backupFolder` holds, each against the data folder's file of that name. A different
 * one there is refused unless `force`, all of them named at once: it may open the database being
 * replaced, or be a master key clients hold.
 */
export function planKeyFiles(
  backupFolder: string,
  dataDir: string,
  force: boolean,
  refuse: (message: string) => Error,
): KeyFileStep[] {
  const steps = KEY_FILES.filter((name) => existsSync(join(backupFolder, name))).map((name): KeyFileStep => {
    const from = join(backupFolder, name);
    const to = join(dataDir, name);
    // Compared as the server reads them: one secret a file, surrounding whitespace ignored.
    const state = !existsSync(to)
      ? 'new'
      : readFileSync(to, 'utf8').trim() === readFileSync(from, 'utf8').trim()
        ? 'same'
        : 'different';
    return { name, from, to, state };
  });
  const different = steps.filter((step) => step.state === 'different');
  if (different.length > 0 && !force)
    throw refuse(
      `the data folder ${dataDir} has key files other than the backup's: ${different.map((step) => step.to).join(', ')}; ` +
        "pass --force to put the backup's in their place (the current ones are kept aside as <file>.before-restore-<time>, not deleted)",
    );
  return steps;
}

/**
 * Writes the backup's key files into the data folder, each through a temporary file and a rename (so a
 * start never reads half a key), after moving a different one aside under `asideSuffix`.
 */
export function putBackKeyFiles(steps: readonly KeyFileStep[], asideSuffix: string): KeyFilesPutBack {
  const putBack: string[] = [];
  const keptAside: string[] = [];
  for (const step of steps) {
    if (step.state === 'same') continue;
    const partial = `${step.to}.restore-${process.pid}`;
    try {
      copyFileSync(step.from, partial);
      chmodSync(partial, 0o600);
      if (step.state === 'different') {
        renameSync(step.to, `${step.to}${asideSuffix}`);
        keptAside.push(`${step.to}${asideSuffix}`);
      }
      renameSync(partial, step.to);
      putBack.push(step.to);
    } finally {
      rmSync(partial, { force: true });
    }
  }
  const unchanged = steps.filter((step) => step.state === 'same').map((step) => step.to);
  return { putBack, keptAside, unchanged };
}
