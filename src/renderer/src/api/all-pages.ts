/** A page of one of the store's lists: `next_cursor` is the `after` of the next page, absent on the last. */
export interface ListPage {
  readonly next_cursor?: string;
}

/**
 * Reads a list the store answers in pages by following `next_cursor` to the end, and joins the pages
 * into one answer without a cursor: a screen that shows "every branch" must not stop at the first page.
 */
export async function readAllPages<P extends ListPage>(
  readPage: (after: string | undefined) => Promise<P>,
  join: (pages: readonly P[]) => P,
): Promise<P> {
  const pages: P[] = [];
  let after: string | undefined;
  do {
    const page = await readPage(after);
    pages.push(page);
    // A cursor that does not move would loop for ever; the store never sends one, but a list is not worth a hang.
    after = page.next_cursor !== after ? page.next_cursor : undefined;
  } while (after !== undefined);
  return join(pages);
}
