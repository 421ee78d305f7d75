import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { startTempServers, TEST_MASTER_KEY, type TempServers } from '../../support/temp-servers.js';

/**
 * A large document deleted through the admin API leaves readers at once, and its chunks are deleted in
 * slices after the answer. A gateway stopped before the last slice leaves the rest set aside: the next
 * start deletes it before anything reads the index.
 */
describe('a deletion of a large document stopped half-way', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-rag-deletion-'));
  let servers: TempServers | undefined;
  afterAll(async () => {
    await servers?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const start = async (): Promise<TempServers> =>
    startTempServers({ rag: { chunk_size: 300, chunk_overlap: 50 } }, { GATEHOUSE_DATA_DIR: dataDir });
  const admin = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> => {
    const response = await fetch(`${servers!.gatewayUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
  };
  /** Rows of a table in the database file, hidden ones included. */
  const rows = (table: 'rag_chunks' | 'rag_documents'): number => {
    const database = new Database(join(dataDir, 'gatehouse.db'), { readonly: true, fileMustExist: true });
    try {
      return (database.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    } finally {
      database.close();
    }
  };
  /** About 1 MB of prose in paragraphs. */
  const sentence = Array.from({ length: 12 }, (_, at) => `word${at % 10}`).join(' ');
  const paragraph = Array.from({ length: 6 }, () => `${sentence}.`).join(' ');
  const content = Array.from({ length: Math.floor(1_000_000 / (paragraph.length + 2)) }, () => paragraph).join('\n\n');

  it('is finished by the next start, and the key can be written again', async () => {
    servers = await start();
    expect((await admin('POST', '/internal/rag/collections', { name: 'notes' })).status).toBe(201);
    const stored = await admin('POST', '/internal/rag/collections/notes/documents', { key: 'notes.txt', content });
    expect(stored.status).toBe(201);
    expect(stored.body.chunks).toBeGreaterThan(3000);

    expect((await admin('DELETE', `/internal/rag/collections/notes/documents/${stored.body.id}`)).status).toBe(204);
    // Gone for readers as the delete answers.
    expect((await admin('GET', '/internal/rag/collections/notes')).body).toMatchObject({ documents: 0, chunks: 0 });
    expect((await admin('GET', '/internal/rag/collections/notes/documents')).body.data).toEqual([]);
    await servers.stop();
    servers = undefined;
    // Stopped before the deletion's last slice: the rest of its chunks are still in the file.
    expect(rows('rag_chunks')).toBeGreaterThan(0);
    expect(rows('rag_documents')).toBe(1);

    servers = await start();
    expect(rows('rag_chunks')).toBe(0);
    expect(rows('rag_documents')).toBe(0);
    expect((await admin('GET', '/internal/rag/collections/notes')).body).toMatchObject({ documents: 0, chunks: 0 });
    const again = await admin('POST', '/internal/rag/collections/notes/documents', { key: 'notes.txt', content });
    expect(again.status).toBe(201);
    expect(again.body.change).toBe('added');
  });
});
