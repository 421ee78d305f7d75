/**
 * `npm run backup -- <file> [--config <file> | --data-dir <dir>] [--force] [--with-keys]`: writes a
 * consistent, checked copy of the data folder's database to <file>, safely while a server runs on it,
 * and names the key files to keep with it; with `--with-keys`, <file> is a folder holding the copy
 * and those key files.
 * Exit codes: 0 written, 1 the copy failed or the database is damaged, 2 bad arguments (an existing
 * <file> without --force among them).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { failure, parseDatabaseCommand, type Fail } from './database-command.js';
import { BackupError, backupDatabase } from './database-backup.js';
import { BACKUP_DATABASE, KEY_FILES, backupWithKeys } from './database-backup-with-keys.js';

const USAGE = 'usage: npm run backup -- <file> [--config <file> | --data-dir <dir>] [--force] [--with-keys]';

const HELP = `${USAGE}

Writes a consistent copy of the data folder's database (gatehouse.db, with what is still in its -wal
file) to <file>, safely while a server runs on it, and checks the copy (PRAGMA quick_check) before
putting it in place: a damaged database is not backed up, and <file> is left as it was.
Restoring it: npm run restore -- <file> (docs/configuration.md#backups).

options:
  --config <file>   the configuration file the server was started with (npm run serve -- --config
                    <file>); its server.data_dir is the folder, unless GATEHOUSE_DATA_DIR is set
  --data-dir <dir>  the data folder itself
                    without either: GATEHOUSE_DATA_DIR, else server.data_dir of the configuration
                    file GATEHOUSE_CONFIG names, else the OS's per-user folder, as npm run serve finds it
  --force           replace <file> if it exists (never with a copy of a damaged database)
  --with-keys       <file> is a folder (mode 0700) holding gatehouse.db and the data folder's key files
                    (secrets.key, master.key, store.token; mode 0600), which npm run restore puts back:
                    a backup that comes back whole on another machine, and holds secrets (keep it private)
  -h, --help        this text

exit codes: 0 written, 1 the copy failed or the database is damaged, 2 bad arguments (an existing
<file> without --force, a data folder without a database)
`;

const fail: Fail = failure('backup');

/** A human size: 4.0 KB, 12.3 MB. */
function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** What the database alone does not hold, among the files of `dataDir`, and why each matters. */
function keepWithIt(dataDir: string): string[] {
  const lines: string[] = [];
  const secrets = join(dataDir, 'secrets.key');
  if (existsSync(secrets))
    lines.push(
      `${secrets}: the provider keys saved through PUT /internal/deployments are encrypted with it; without it the copy's are lost (a start over them stops)`,
    );
  for (const [file, what] of [
    ['master.key', 'the master key of the admin API (unless PROXY_MASTER_KEY is set)'],
    ['store.token', "the store's full-access token (unless STORE_TOKEN is set)"],
  ] as const) {
    const path = join(dataDir, file);
    if (existsSync(path)) lines.push(`${path}: ${what}; without it a start generates a new one`);
  }
  return lines;
}

async function main(args: readonly string[]): Promise<void> {
  const command = parseDatabaseCommand(
    'backup',
    args,
    { usage: USAGE, help: HELP, fileMissing: 'name the file to write' },
    { withKeys: true },
  );
  if (command === undefined) return;
  const { file: target, folder, foundBy, force } = command;
  process.stdout.write(`backup: data folder ${folder} (${foundBy})\n`);
  const source = join(folder, 'gatehouse.db');
  try {
    if (command.withKeys) {
      const written = await backupWithKeys(folder, target, force);
      process.stdout.write(
        `backup: wrote the folder ${written.folder} (mode 0700) holding:\n` +
          `  ${BACKUP_DATABASE} (${size(written.bytes)}), a consistent copy of ${source}, checked with PRAGMA quick_check\n` +
          written.keyFiles.map((name) => `  ${name} (mode 0600), copied from ${join(folder, name)}\n`).join(''),
      );
      const absent = KEY_FILES.filter((name) => !written.keyFiles.includes(name));
      if (absent.length > 0)
        process.stdout.write(`backup: the data folder has no ${absent.join(', ')}, so the backup has none either\n`);
      // Secrets the environment gave (PROXY_MASTER_KEY, STORE_TOKEN) are never in the folder, nor copied.
      const holds =
        written.keyFiles.length > 0
          ? 'the backup holds secrets (the key files open its provider keys and the admin and store APIs): keep it as private as the data folder; '
          : '';
      process.stdout.write(`backup: ${holds}npm run restore -- ${written.folder} puts it all back\n`);
      return;
    }
    const { target: written, bytes } = await backupDatabase(source, target, force);
    process.stdout.write(
      `backup: wrote ${written} (${size(bytes)}), a consistent copy of ${source}, checked with PRAGMA quick_check\n`,
    );
    const keep = keepWithIt(folder);
    if (keep.length > 0)
      process.stdout.write(
        `backup: the copy holds no key files (--with-keys copies them into a backup folder); keep these with it, as privately:\n${keep.map((line) => `  ${line}\n`).join('')}`,
      );
  } catch (error) {
    if (error instanceof BackupError) fail(error.message, error.refused ? 2 : 1);
    if (error instanceof Error && 'code' in error) fail(`cannot copy ${source}: ${error.message}`, 1);
    throw error;
  }
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => fail((error as Error).stack ?? String(error), 1),
);
