import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';

/**
 * What a row of a virtualised table carries: the ref that measures it (rows wrap long lines, so their
 * heights differ), its index for the measurer, and its place among all the table's rows (the header
 * row is the first) for assistive technology, which sees only the rows in view.
 */
export interface RowPlace {
  readonly ref?: (element: HTMLTableRowElement | null) => void;
  readonly 'data-index'?: number;
  readonly 'aria-rowindex'?: number;
}

/** A table row standing in for the rows above or below the ones in view, keeping the scroll height. */
function Spacer({ height, columns }: { readonly height: number; readonly columns: number }) {
  if (height <= 0) return null;
  return (
    <tr aria-hidden="true" className="diff-spacer">
      <td colSpan={columns} style={{ height }} />
    </tr>
  );
}

/**
 * A table body that renders only the rows in view of `scroller` (and a margin around them), so a
 * diff of tens of thousands of rows opens and scrolls as quickly as a short one. `renderRow` spreads
 * the place it is given on its `<tr>`; the table itself says how many rows it has (`aria-rowcount`).
 */
export function VirtualTableBody({
  count,
  columns,
  scroller,
  renderRow,
  reveal,
}: {
  readonly count: number;
  readonly columns: number;
  readonly scroller: RefObject<HTMLElement | null>;
  readonly renderRow: (index: number, place: RowPlace) => ReactNode;
  /** A row to scroll into the drawn range (a new object each time it is asked, even for the same row). */
  readonly reveal?: { readonly index: number };
}) {
  const body = useRef<HTMLTableSectionElement>(null);
  // Where the body starts inside the scrolling element (below a note, the hidden header).
  const [margin, setMargin] = useState(0);
  useLayoutEffect(() => {
    const element = body.current;
    const parent = scroller.current;
    if (!element || !parent) return;
    setMargin(element.getBoundingClientRect().top - parent.getBoundingClientRect().top + parent.scrollTop);
  }, [scroller]);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => 20,
    overscan: 40,
    scrollMargin: margin,
  });
  useEffect(() => {
    if (reveal && reveal.index < count) virtualizer.scrollToIndex(reveal.index, { align: 'center' });
  }, [reveal, count, virtualizer]);
  const items = virtualizer.getVirtualItems();
  const first = items[0];
  const last = items[items.length - 1];
  const above = first ? first.start - margin : 0;
  const below = last ? virtualizer.getTotalSize() - (last.end - margin) : 0;
  return (
    <tbody ref={body}>
      <Spacer height={above} columns={columns} />
      {items.map((item) =>
        renderRow(item.index, {
          ref: virtualizer.measureElement,
          'data-index': item.index,
          // The header row is row 1.
          'aria-rowindex': item.index + 2,
        }),
      )}
      <Spacer height={below} columns={columns} />
    </tbody>
  );
}
