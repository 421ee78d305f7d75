import type Database from 'better-sqlite3';
import { readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { readUnwrittenUsage, UNWRITTEN_USAGE_FILE, writeUnwrittenUsage } from './unwritten-usage-file.js';
import type { UsageEntry } from './usage-entry.js';
import { UsageRepository } from './usage.repository.js';

/** Where the rows kept aside, taken back or lost are said. */
export interface UnwrittenUsageLog {
  readonly info: (message: string, details: Record<string, unknown>) => void;
  readonly warn: (message: string, details: Record<string, unknown>) => void;
  readonly error: (message: string, error: unknown) => void;
}

/**
 * Keeps the usage rows a stopping server could not write (answered requests: their tokens and cost,
 * which budgets and bills are made of) in a file of the data folder the next start writes to the
 * database, saying how many and where. Where even that fails (the same full or read-only disk), the
 * rows themselves go to the log, the last place they can be recovered from.
 */
export function keepUnwrittenUsage(dataDir: string, rows: readonly UsageEntry[], log: UnwrittenUsageLog): void {
  try {
    const file = writeUnwrittenUsage(dataDir, rows);
    log.warn(
      `the database did not take ${rows.length} usage rows before the stop's deadline: kept in ${file}, which the next start writes to the usage log`,
      { rows: rows.length, file },
    );
  } catch (error) {
    log.error(
      `could not write ${rows.length} usage rows at the stop, nor keep them in the data folder ${dataDir}: the next line holds them`,
      error,
    );
    log.warn('the usage rows not written', { rows: rows.length, usage_rows: rows });
  }
}

/**
 * Writes the usage rows earlier stops could not (`usage-unwritten-*.jsonl` in `dataDir`, see
 * writeUnwrittenUsage), before the limits rebuild budgets from the usage table: each file in one
 * transaction, then deleted. A row the table holds already (the same request id, endpoint and time: a
 * file imported once whose deletion failed) is not written twice. A file that cannot be read is renamed
 * aside (`.bad`) and named in a warning; a database that cannot take the rows now leaves the file for
 * the next start. Neither stops this one.
 */
export function importUnwrittenUsage(sqlite: Database.Database, dataDir: string, log: UnwrittenUsageLog): void {
  let names: string[];
  try {
    names = readdirSync(dataDir).filter((name) => UNWRITTEN_USAGE_FILE.test(name));
  } catch {
    return;
  }
  if (names.length === 0) return;
  const usage = new UsageRepository(sqlite);
  const present = sqlite.prepare(
    'SELECT request_id AS requestId, endpoint, created_at AS createdAt FROM gateway_usage WHERE created_at BETWEEN ? AND ?',
  );
  const rowKey = (row: Pick<UsageEntry, 'requestId' | 'endpoint' | 'createdAt'>): string =>
    JSON.stringify([row.requestId, row.endpoint, row.createdAt]);
  const insertMissing = sqlite.transaction((rows: readonly UsageEntry[]): number => {
    // A loop, not Math.min(...times): a file may hold 100,000 rows, past the arguments a call takes.
    let first = Infinity;
    let last = -Infinity;
    for (const row of rows) {
      first = Math.min(first, row.createdAt);
      last = Math.max(last, row.createdAt);
    }
    const written = new Set((present.all(first, last) as UsageEntry[]).map((row) => rowKey(row)));
    let inserted = 0;
    for (const row of rows) {
      if (written.has(rowKey(row))) continue;
      written.add(rowKey(row));
      usage.insertOne(row);
      inserted += 1;
    }
    return inserted;
  });
  for (const name of names.sort()) {
    const file = join(dataDir, name);
    let read: ReturnType<typeof readUnwrittenUsage>;
    try {
      read = readUnwrittenUsage(file);
    } catch (error) {
      read = { problem: (error as Error).message };
    }
    if ('problem' in read) {
      setAside(file, read.problem, log);
      continue;
    }
    let inserted: number;
    try {
      inserted = read.rows.length === 0 ? 0 : insertMissing(read.rows);
    } catch (error) {
      log.warn(
        `could not write the ${read.rows.length} usage rows of ${file} (${(error as Error).message}); the next start tries again`,
        { file, rows: read.rows.length },
      );
      continue;
    }
    try {
      rmSync(file, { force: true });
    } catch (error) {
      // Written already: the next start finds the rows present and writes none of them again.
      log.warn(`could not delete ${file} after writing its usage rows: ${(error as Error).message}`, { file });
    }
    log.info(
      `wrote ${inserted} usage rows an earlier stop could not write, from ${file}` +
        (inserted < read.rows.length ? ` (${read.rows.length - inserted} were in the database already)` : ''),
      { file, rows: inserted, already_present: read.rows.length - inserted },
    );
  }
}

/** Renames a file that cannot be read out of the way of later starts, saying so. */
function setAside(file: string, problem: string, log: UnwrittenUsageLog): void {
  const aside = `${file}.bad`;
  try {
    renameSync(file, aside);
  } catch (error) {
    log.warn(
      `the usage rows file ${file} cannot be read (${problem}), nor renamed aside: ${(error as Error).message}`,
      {
        file,
      },
    );
    return;
  }
  log.warn(
    `the usage rows file ${file} cannot be read (${problem}): renamed to ${aside}, its rows were not written to the usage log`,
    { file: aside },
  );
}
