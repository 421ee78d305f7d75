import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { npmRun, ROOT } from '../support/data-folder-commands.js';

interface Journal {
  entries: Array<{ when: number; tag: string }>;
}

const journal = JSON.parse(readFileSync(join(ROOT, 'drizzle', 'meta', '_journal.json'), 'utf8')) as Journal;
const day = (when: number) => new Date(when).toISOString().slice(0, 10);

/** A database an older version made: every migration but the newest `missing`, in a copy of drizzle/ that stops there. */
function databaseWithout(dir: string, missing: number): string {
  const migrations = join(dir, 'drizzle');
  cpSync(join(ROOT, 'drizzle'), migrations, { recursive: true });
  const older: Journal = { ...journal, entries: journal.entries.slice(0, journal.entries.length - missing) };
  writeFileSync(join(migrations, 'meta', '_journal.json'), JSON.stringify(older));
  const file = join(dir, `without-${missing}.db`);
  const db = new Database(file);
  try {
    migrate(drizzle(db), { migrationsFolder: migrations });
  } finally {
    db.close();
  }
  rmSync(migrations, { recursive: true });
  return file;
}

describe('npm run restore of a backup an older version made', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('says how many schema changes the next start applies, up to when, and that older versions then refuse the folder', async () => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-restore-old-'));
    const result = await npmRun('restore', [databaseWithout(dir, 3), '--data-dir', join(dir, 'data')]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const newest = day(journal.entries.at(-1)!.when);
    expect(result.stdout).toContain(
      `restore: the next start will upgrade it with 3 schema changes (up to ${newest}, the newest this version knows); ` +
        'after that, older versions of Gatehouse refuse the folder',
    );
  }, 60_000);

  it('says nothing of an upgrade for a backup of this version', async () => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-restore-old-'));
    const result = await npmRun('restore', [databaseWithout(dir, 0), '--data-dir', join(dir, 'data')]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('restore: restored ');
    expect(result.stdout).not.toContain('upgrade');
  }, 60_000);
});
