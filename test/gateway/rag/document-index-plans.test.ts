import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../../src/server/db/connection.js';
import { setAsideMark } from '../../../src/server/gateway/rag/rag-statements.js';
import { RagRepository, type NewChunk } from '../../../src/server/gateway/rag/rag.repository.js';
import { insertBareCollection } from '../support/rag-collection-row.js';

/**
 * Listing, finding and setting aside documents read a collection's chunks by document. Without
 * statistics SQLite would read them through the collection's index, every chunk of the collection for
 * each document (seconds of a blocked event loop at tens of thousands of chunks): the plan of every
 * statement these run must use the document index, in a database that has no statistics, as the
 * gateway's has not.
 */
const DOCUMENTS = 250;
const CHUNKS_PER_DOCUMENT = 20;

const keyOf = (at: number): string => `doc-${String(at).padStart(4, '0')}.txt`;
const chunks = (count: number, tag: string): NewChunk[] =>
  Array.from({ length: count }, (_, ordinal) => ({
    ordinal,
    heading: null,
    text: `${tag} passage ${ordinal}`,
    embedding: null,
    embeddingModel: null,
  }));

describe('RAG document reads and writes at scale: plans by the document index', () => {
  let database: DatabaseHandle;
  let repository: RagRepository;
  /** SQL texts compiled by the repository while `recording` is set. */
  let recording: string[] | undefined;

  beforeAll(() => {
    database = openDatabase(':memory:');
    const prepare = database.sqlite.prepare.bind(database.sqlite);
    database.sqlite.prepare = ((sql: string) => {
      recording?.push(sql);
      return prepare(sql);
    }) as typeof database.sqlite.prepare;
    repository = new RagRepository(database.sqlite);
    for (const name of ['big', 'small']) insertBareCollection(repository, name);
    database.sqlite.transaction(() => {
      for (let at = 0; at < DOCUMENTS; at += 1)
        repository.replaceDocument(
          {
            collection: 'big',
            key: keyOf(at),
            contentType: 'text',
            contentHash: `h${at}`,
            chars: 10,
            revision: null,
            newId: `id-${at}`,
            now: 1,
          },
          chunks(CHUNKS_PER_DOCUMENT, `big${at}`),
        );
    })();
    repository.replaceDocument(
      {
        collection: 'small',
        key: 'only.txt',
        contentType: 'text',
        contentHash: 'h',
        chars: 1,
        revision: null,
        newId: 'small-id',
        now: 1,
      },
      chunks(3, 'small'),
    );
  });
  afterAll(() => database.close());

  /**
   * What `action` returns, run on a repository of its own (which compiles every statement it runs), with
   * the query plan of each of those statements that reads chunks by document.
   */
  function withPlans<T>(action: (fresh: RagRepository) => T): { result: T; plans: string[] } {
    recording = [];
    const result = action(new RagRepository(database.sqlite));
    const compiled = recording;
    recording = undefined;
    const plans = compiled
      .filter((sql) => /rag_chunks/.test(sql) && /document_id/.test(sql))
      .map((sql) => {
        const parameters = Array.from(sql.matchAll(/\?/g), () => null);
        const rows = database.sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...parameters) as Array<{
          detail: string;
        }>;
        return rows.map((row) => row.detail).join(' | ');
      });
    return { result, plans };
  }

  function expectDocumentIndex(plans: readonly string[]): void {
    expect(plans.length).toBeGreaterThan(0);
    for (const plan of plans) {
      expect(plan).toMatch(/USING (COVERING )?INDEX rag_chunks_document \(document_id=/);
      expect(plan).not.toContain('rag_chunks_collection');
      expect(plan).not.toContain('TEMP B-TREE');
    }
  }

  it('holds the chunks the test set up', () => {
    const count = database.sqlite.prepare('SELECT count(*) AS n FROM rag_chunks').get() as { n: number };
    expect(count.n).toBe(DOCUMENTS * CHUNKS_PER_DOCUMENT + 3);
  });

  it('lists every document, or a page after a key, each with its own chunks counted', () => {
    // Chunks staged for a document (a write under way) are not yet its chunks.
    repository.stageChunks('id-7', setAsideMark('staged'), null, chunks(5, 'staged'));
    const all = withPlans((fresh) => fresh.documents('big'));
    expect(all.result.map((row) => row.key)).toEqual(Array.from({ length: DOCUMENTS }, (_, at) => keyOf(at)));
    expect(all.result.every((row) => row.chunks === CHUNKS_PER_DOCUMENT)).toBe(true);
    expectDocumentIndex(all.plans);

    const page = withPlans((fresh) => fresh.documents('big', { after: keyOf(99), limit: 10 }));
    expect(page.result.map((row) => row.key)).toEqual(Array.from({ length: 10 }, (_, at) => keyOf(100 + at)));
    expectDocumentIndex(page.plans);
  });

  it('finds one document by id within its collection only', () => {
    const found = withPlans((fresh) => fresh.documentById('big', 'id-42'));
    expect(found.result).toMatchObject({ id: 'id-42', key: keyOf(42), chunks: CHUNKS_PER_DOCUMENT });
    expectDocumentIndex(found.plans);
    expect(repository.documentById('small', 'id-42')).toBeUndefined();
    expect(repository.documentById('big', 'id-none')).toBeUndefined();
  });

  it("pages a collection's chunks in document and reading order", () => {
    const first = withPlans((fresh) => fresh.chunks('big', { limit: 25 }));
    expect(first.result.map((row) => [row.documentKey, row.ordinal])).toEqual(
      Array.from({ length: 25 }, (_, at) => [keyOf(Math.floor(at / CHUNKS_PER_DOCUMENT)), at % CHUNKS_PER_DOCUMENT]),
    );
    expectDocumentIndex(first.plans);
    const next = withPlans((fresh) => fresh.chunks('big', { limit: 3, after: { documentKey: keyOf(5), ordinal: 18 } }));
    expect(next.result.map((row) => [row.documentKey, row.ordinal])).toEqual([
      [keyOf(5), 19],
      [keyOf(6), 0],
      [keyOf(6), 1],
    ]);
    expectDocumentIndex(next.plans);
  });

  it('swaps in staged chunks and sets documents aside by the document index', () => {
    const staged = setAsideMark('staged');
    repository.stageChunks('id-3', staged, null, chunks(4, 'replacement'));
    const swap = withPlans((fresh) =>
      fresh.swapInChunks(
        { id: 'id-3', collection: 'big', contentType: 'text', contentHash: 'new', chars: 5, revision: null, now: 2 },
        staged,
        setAsideMark('replaced'),
      ),
    );
    expect(swap.result).toBe(true);
    expect(repository.documentById('big', 'id-3')?.chunks).toBe(4);
    expectDocumentIndex(swap.plans);

    const aside = withPlans((fresh) =>
      fresh.setAsideDocuments('big', ['id-10', 'id-11', 'small-id'], setAsideMark('deleted'), 3),
    );
    // small-id is another collection's: not taken.
    expect(aside.result).toBe(2);
    expectDocumentIndex(aside.plans);
    expect(repository.documents('big')).toHaveLength(DOCUMENTS - 2);
    expect(repository.documentById('small', 'small-id')?.chunks).toBe(3);
  });
});
