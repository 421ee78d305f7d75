import { DataFolderInUseError } from '../data-folder/data-folder-in-use.js';
import { DATA_DIR_SETTING } from './data-dir.js';
import { ConfigError } from './load.js';

/**
 * A failure to use the data folder or its database, said in the user's terms: which folder or file,
 * the setting that chose it, and what to do. Configuration errors, and a folder another server holds
 * (already said that way), pass through as they are.
 */
export function dataFolderProblem(error: unknown, dataDir: string, databaseFile: string): Error {
  if (error instanceof ConfigError || error instanceof DataFolderInUseError || !(error instanceof Error))
    return error as Error;
  // A migration's query fails wrapped by Drizzle ("Failed to run the query ..."): SQLite's own error is its cause.
  const sqlite = sqliteErrorIn(error);
  if (sqlite !== undefined) {
    const code = sqlite.code;
    const hint =
      code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT'
        ? `: the file is damaged; restore the latest backup (npm run backup makes them), or try to recover it with sqlite3 "${databaseFile}" ".recover" | sqlite3 recovered.db and put recovered.db in its place; only then move it aside to start with an empty database (docs/configuration.md#backups)`
        : code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED'
          ? ': another process holds its write lock (a Gatehouse server of an older version still running on this folder, a sqlite3 shell, a backup); stop it and start again'
          : '';
    return new Error(`cannot open the database ${databaseFile} (${DATA_DIR_SETTING}): ${sqlite.message}${hint}`, {
      cause: error,
    });
  }
  const code = (error as NodeJS.ErrnoException).code ?? '';
  const hint =
    code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
      ? ': it must be a folder this user owns and may write, or one it may create'
      : code === 'ENOTDIR' || code === 'EEXIST'
        ? ': part of that path is a file, not a folder'
        : '';
  return new Error(`cannot use the data folder ${dataDir} (${DATA_DIR_SETTING}): ${error.message}${hint}`, {
    cause: error,
  });
}

/** SQLite's error in `error` or its chain of causes, if any. */
function sqliteErrorIn(error: Error): (Error & { code: string }) | undefined {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    const code = (current as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && code.startsWith('SQLITE_')) return current as Error & { code: string };
  }
  return undefined;
}
