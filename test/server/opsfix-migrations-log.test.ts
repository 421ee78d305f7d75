import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/connection.js';
import { spawnHeadless } from '../support/headless-process.js';

const MASTER = 'gk-master-opsfix-migrations-0123456789';

interface JournalEntry {
  readonly tag: string;
}

/**
 * A start that upgrades an existing database's schema says so, naming the migrations it applied: an
 * upgrade cannot be undone by starting the older version again. A start that applied none says nothing.
 */
describe('the log of a start that migrates the database', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-opsfix-migrations-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('names how many migrations and which were applied, once', async () => {
    // A database an earlier version made: every migration but the last two.
    const older = join(dir, 'older-drizzle');
    cpSync('drizzle', older, { recursive: true });
    const journalFile = join(older, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: JournalEntry[] };
    const newest = journal.entries.slice(-2).map((entry) => entry.tag);
    writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, -2) }));
    const dataDir = join(dir, 'data');
    openDatabase(join(dataDir, 'gatehouse.db'), older).close();

    const env = {
      GATEHOUSE_DATA_DIR: dataDir,
      GATEHOUSE_CONFIG: '',
      PROXY_MASTER_KEY: MASTER,
      GATEHOUSE_LOG_LEVEL: 'info',
    };
    const first = await spawnHeadless(env);
    first.child.kill('SIGTERM');
    await first.exited();
    const lines = first
      .output()
      .split('\n')
      .filter((line) => line.includes('migration(s)'));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 30,
      migrations: newest,
      msg: `applied 2 migration(s) to the database ${join(dataDir, 'gatehouse.db')}: ${newest.join(', ')}`,
    });

    const again = await spawnHeadless(env);
    again.child.kill('SIGTERM');
    await again.exited();
    expect(again.output()).not.toContain('migration(s)');
  });
});
