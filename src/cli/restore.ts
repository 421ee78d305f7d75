/**
 * `npm run restore -- <backup.db> [--config <file> | --data-dir <dir>] [--force]`: puts a backup in
 * place of the data folder's database, checked, with the replaced database and its -wal kept aside.
 * Exit codes: 0 restored, 1 not done (a server holds the folder, the backup is damaged, the copy
 * failed), 2 bad arguments (no such backup, not a Gatehouse database or one of a newer version, a
 * folder that has a database without --force, a folder the start would refuse).
 */
import { failure, parseDatabaseCommand, type Fail } from './database-command.js';
import { RestoreError, restoreDatabase } from './database-restore.js';

const USAGE = 'usage: npm run restore -- <backup.db | backup folder> [--config <file> | --data-dir <dir>] [--force]';

const HELP = `${USAGE}

Puts <backup.db> (a file npm run backup wrote) in place of the data folder's database, with the
server stopped: it refuses while a server holds the folder, and holds it itself meanwhile. The backup is
copied into the folder and checked there (PRAGMA quick_check, a Gatehouse database this version can
run) before anything changes; then the current gatehouse.db and its -wal are kept aside as
gatehouse.db.before-restore-<time> (never deleted by this command), its -shm removed, and the copy put
in place (mode 0600). It then says whether the folder's secrets.key opens the provider keys in it.
A backup folder (npm run backup --with-keys) puts back its key files too (secrets.key, master.key,
store.token; mode 0600): a different one already in the data folder is refused, named, unless --force,
which keeps it aside as <file>.before-restore-<time>.
More: docs/configuration.md#backups.

options:
  --config <file>   the configuration file the server is started with (npm run serve -- --config
                    <file>); its server.data_dir is the folder, unless GATEHOUSE_DATA_DIR is set
  --data-dir <dir>  the data folder itself
                    without either: GATEHOUSE_DATA_DIR, else server.data_dir of the configuration
                    file GATEHOUSE_CONFIG names, else the OS's per-user folder, as npm run serve finds it
  --force           replace the folder's database and, from a backup folder, its different key files
                    (kept aside as gatehouse.db.before-restore-<time>, <file>.before-restore-<time>)
  -h, --help        this text

exit codes: 0 restored, 1 not done (a server holds the folder, the backup is damaged, the copy failed),
2 bad arguments (no such backup, not a Gatehouse database or one of a newer version, a folder that has
a database or different key files without --force, a folder a start would refuse)
`;

const fail: Fail = failure('restore');

async function main(args: readonly string[]): Promise<void> {
  const command = parseDatabaseCommand('restore', args, {
    usage: USAGE,
    help: HELP,
    fileMissing: 'name the backup to restore',
  });
  if (command === undefined) return;
  const { file: source, folder, foundBy, force } = command;
  process.stdout.write(`restore: data folder ${folder} (${foundBy})\n`);
  try {
    const result = await restoreDatabase(source, folder, force);
    const out = (line: string): boolean => process.stdout.write(`restore: ${line}\n`);
    if (result.takeover !== undefined) out(result.takeover);
    if (result.keptAside.length > 0)
      out(`kept the replaced database aside (this command never deletes it): ${result.keptAside.join(', ')}`);
    for (const file of result.removed) out(`removed ${file}, the replaced database's -wal index`);
    if (result.keyFiles !== undefined) {
      const { putBack, keptAside, unchanged } = result.keyFiles;
      if (keptAside.length > 0)
        out(`kept the replaced key files aside (this command never deletes them): ${keptAside.join(', ')}`);
      if (putBack.length > 0) out(`put back the backup's key files (mode 0600): ${putBack.join(', ')}`);
      if (unchanged.length > 0) out(`already the backup's, left as they were: ${unchanged.join(', ')}`);
      if (putBack.length + unchanged.length === 0) out('the backup folder holds no key files');
    }
    out(
      `restored ${source} as ${result.database} (mode 0600), checked with PRAGMA quick_check: a Gatehouse database with schema changes up to ${result.schemaOf}`,
    );
    if (result.upgrade !== undefined)
      // Said now, while the folder can still go back: after the upgrade no older version opens it.
      out(
        `the next start will upgrade it with ${result.upgrade.migrations} schema change${result.upgrade.migrations === 1 ? '' : 's'} ` +
          `(up to ${result.upgrade.knownUpTo}, the newest this version knows); after that, older versions of Gatehouse refuse the folder. ` +
          `To stay on an older version, run that version on this folder before starting this one`,
      );
    if (!result.secretsKey.actionNeeded) out(result.secretsKey.line);
    else {
      // Replacing secrets.key for the restored database leaves the one kept aside without its key.
      const asideToo =
        result.keptAside.length > 0 ? ` (the database kept aside needs the current one: keep a copy of it)` : '';
      process.stderr.write(`restore: ${result.secretsKey.line}${asideToo}\n`);
    }
  } catch (error) {
    if (error instanceof RestoreError) fail(error.message, error.refused ? 2 : 1);
    if (error instanceof Error && 'code' in error) fail(`cannot restore ${source}: ${error.message}`, 1);
    throw error;
  }
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => fail((error as Error).stack ?? String(error), 1),
);
