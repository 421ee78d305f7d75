import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { focusUnlessTaken } from '../lib/focus-unless-taken.js';
import { useListNavigation } from '../lib/use-list-navigation.js';

/** Props of {@link VirtualList}. */
export interface VirtualListProps {
  readonly count: number;
  /**
   * How many items the whole list has, when more than the `count` read so far (a log read in pages):
   * each option's `aria-setsize`. Without it, `count`, or "unknown" (-1) for a list still read in pages
   * (`onEndReached`), so a screen reader never hears a page's size as the list's.
   */
  readonly setSize?: number;
  readonly rowHeight: number;
  /** The height of a row taller than `rowHeight` (one with a note under it); keep it stable (`useCallback`). */
  readonly rowHeightOf?: (index: number) => number;
  readonly renderRow: (index: number, selected: boolean) => ReactNode;
  readonly rowKey?: (index: number) => string | number;
  /** The row's accessible name, when its text alone would not say what it is (a row of columns). */
  readonly rowLabel?: (index: number) => string;
  /** The highlighted row, or -1. */
  readonly selected: number;
  readonly onSelect: (index: number) => void;
  readonly onOpen?: (index: number) => void;
  readonly onClose?: () => void;
  /** Called when the last rows come into view (load the next page). */
  readonly onEndReached?: () => void;
  /** End pressed: for a list read in pages, go to its very last item (see ListNavigationOptions). */
  readonly onEnd?: () => void;
  /** A relative move while the chosen row is not read yet (see ListNavigationOptions). */
  readonly onMoveUnread?: (by: number) => void;
  /**
   * A single click opens the row too (a drawer that follows the selection), and so does Enter before
   * any row is highlighted: it opens the first.
   */
  readonly openOnClick?: boolean;
  readonly label: string;
  /**
   * `true` focuses the list on mount unless the user has moved into the screen already; a number
   * focuses it whenever a new truthy value is passed.
   */
  readonly autoFocus?: boolean | number;
  readonly className?: string;
  readonly testId?: string;
}

/**
 * A keyboard-driven list that renders only the rows in view, so a history of a million revisions
 * or a traffic buffer at 200 requests per second costs the same as twenty rows.
 */
export function VirtualList({
  count,
  setSize,
  rowHeight,
  rowHeightOf,
  renderRow,
  rowKey,
  rowLabel,
  selected,
  onSelect,
  onOpen,
  onClose,
  onEndReached,
  onEnd,
  onMoveUnread,
  openOnClick = false,
  label,
  autoFocus,
  className = '',
  testId,
}: VirtualListProps) {
  const parent = useRef<HTMLDivElement>(null);
  // Row ids must be valid IDREFs for aria-activedescendant (no spaces, whatever the label): a numeric
  // key (a sequence number) keeps a row's id as rows arrive above it; other keys use the position.
  const listId = useId();
  const rowId = (index: number): string => {
    const key = rowKey?.(index);
    return `${listId}-row-${typeof key === 'number' ? key : `at-${index}`}`;
  };
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => parent.current,
    estimateSize: (index) => rowHeightOf?.(index) ?? rowHeight,
    overscan: 12,
    getItemKey: rowKey,
  });
  const items = virtualizer.getVirtualItems();
  const nav = useListNavigation({
    count,
    index: selected,
    onMove: onSelect,
    onOpen,
    openFirst: openOnClick,
    onClose,
    page: Math.max(1, Math.floor((parent.current?.clientHeight ?? 600) / rowHeight) - 1),
    onEnd,
    onMoveUnread,
  });

  // Sizes are remembered per row: a row that grows or shrinks without the count changing is laid out again.
  useEffect(() => {
    if (rowHeightOf) virtualizer.measure();
  }, [rowHeightOf, virtualizer]);

  useEffect(() => {
    if (selected >= 0 && selected < count) virtualizer.scrollToIndex(selected, { align: 'auto' });
  }, [selected, count, virtualizer]);

  useEffect(() => {
    // `true` is the screen's starting point; a number is a request to focus the list now.
    if (autoFocus === true) focusUnlessTaken(parent.current);
    else if (autoFocus) parent.current?.focus({ preventScroll: true });
  }, [autoFocus]);

  const last = items[items.length - 1];
  useEffect(() => {
    if (onEndReached && last && last.index >= count - 5) onEndReached();
  }, [last, count, onEndReached]);

  return (
    <div
      ref={parent}
      className={`virtual-list ${className}`}
      id={testId}
      role="listbox"
      aria-label={label}
      aria-activedescendant={selected >= 0 && selected < count ? rowId(selected) : undefined}
      data-testid={testId}
      {...nav}
    >
      <div className="virtual-list-inner" role="presentation" style={{ height: virtualizer.getTotalSize() }}>
        {items.map((item) => (
          <div
            key={item.key}
            id={rowId(item.index)}
            role="option"
            aria-selected={item.index === selected}
            // Only the rows in view exist: without these, "1 of 3,727" is never heard on an option.
            aria-setsize={setSize ?? (onEndReached ? -1 : count)}
            aria-posinset={item.index + 1}
            aria-label={rowLabel?.(item.index)}
            className={item.index === selected ? 'virtual-row is-selected' : 'virtual-row'}
            style={{ height: item.size, transform: `translateY(${item.start}px)` }}
            onMouseDown={() => onSelect(item.index)}
            onClick={openOnClick ? () => onOpen?.(item.index) : undefined}
            onDoubleClick={openOnClick ? undefined : () => onOpen?.(item.index)}
          >
            {renderRow(item.index, item.index === selected)}
          </div>
        ))}
      </div>
    </div>
  );
}
