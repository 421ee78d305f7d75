import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/connection.js';
import { StoreEngine } from '../../src/server/store/engine/store-engine.js';

// A writer process is killed with SIGKILL mid-stream, three times over one database. After each
// restart every acknowledged revision must be there, every revision present must be whole, and
// SQLite's integrity check must pass.

const WRITER = fileURLToPath(new URL('./fixtures/crash-writer.ts', import.meta.url));

/** Starts the writer, waits for `acks` acknowledgements, kills it, and returns what it acknowledged. */
function writeUntilKilled(file: string, run: number, acks: number): Promise<{ revision: number; digest: string }[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WRITER, file, String(run)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const acknowledged: { revision: number; digest: string }[] = [];
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    createInterface({ input: child.stdout }).on('line', (line) => {
      acknowledged.push(JSON.parse(line));
      if (acknowledged.length === acks) child.kill('SIGKILL');
    });
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve(acknowledged);
      else reject(new Error(`writer exited with ${code}: ${stderr}`));
    });
  });
}

describe('store durability', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-crash-'));
  const file = join(dir, 'store.db');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps every acknowledged revision whole across kill -9', { timeout: 90_000 }, async () => {
    const acknowledged: { revision: number; digest: string }[] = [];
    for (const [run, acks] of [
      [1, 120],
      [2, 250],
      [3, 60],
    ] as const) {
      acknowledged.push(...(await writeUntilKilled(file, run, acks)));

      const database = openDatabase(file);
      try {
        expect(database.sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
        const engine = new StoreEngine(database.sqlite);
        for (const ack of acknowledged) {
          const entry = engine.revision('crash', ack.revision);
          expect(entry.message.endsWith(ack.digest)).toBe(true);
        }
        // Every revision present (acknowledged or not) has exactly the changes its message describes.
        let after = 0;
        for (;;) {
          const page = engine.log({ namespace: 'crash' }, { limit: 1000, after });
          for (const entry of page.entries) {
            const digest = createHash('sha256')
              .update(entry.changes.map((c) => `${c.key}=${c.after}`).join('\n'))
              .digest('hex')
              .slice(0, 16);
            expect(entry.message.endsWith(digest)).toBe(true);
          }
          if (page.next_cursor === undefined) break;
          after = page.next_cursor;
        }
        const head = engine.state({ namespace: 'crash' }).revision;
        expect(head).toBeGreaterThanOrEqual(acknowledged[acknowledged.length - 1].revision);
      } finally {
        database.close();
      }
    }
  });
});
