import { describe, expect, it } from 'vitest';
import { readAllPages } from '../../src/renderer/src/api/all-pages.js';

interface NamesPage {
  readonly names: string[];
  readonly next_cursor?: string;
}

/** A store list of `total` names answered `size` at a time, recording the cursors it was asked with. */
function pagedList(total: number, size: number) {
  const all = Array.from({ length: total }, (_, i) => `n${String(i).padStart(4, '0')}`);
  const asked: (string | undefined)[] = [];
  const readPage = async (after: string | undefined): Promise<NamesPage> => {
    asked.push(after);
    const from = after === undefined ? 0 : all.indexOf(after) + 1;
    const names = all.slice(from, from + size);
    return from + size < total ? { names, next_cursor: names[names.length - 1] } : { names };
  };
  return { all, asked, readPage };
}

const join = (pages: readonly NamesPage[]): NamesPage => ({ names: pages.flatMap((page) => page.names) });

describe('readAllPages', () => {
  it('follows next_cursor to the last page and joins every entry, in order, without a cursor', async () => {
    const list = pagedList(2500, 1000);
    const result = await readAllPages(list.readPage, join);
    expect(result.names).toEqual(list.all);
    expect(result.next_cursor).toBeUndefined();
    expect(list.asked).toEqual([undefined, 'n0999', 'n1999']);
  });

  it('reads a single page once', async () => {
    const list = pagedList(3, 1000);
    expect((await readAllPages(list.readPage, join)).names).toEqual(list.all);
    expect(list.asked).toEqual([undefined]);
  });

  it('stops when a cursor does not move instead of asking for ever', async () => {
    let calls = 0;
    const stuck = async (): Promise<NamesPage> => ({ names: [`x${calls++}`], next_cursor: 'same' });
    expect((await readAllPages(stuck, join)).names).toEqual(['x0', 'x1']);
  });
});
