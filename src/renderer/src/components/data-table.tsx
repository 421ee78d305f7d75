import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { focusUnlessTaken } from '../lib/focus-unless-taken.js';
import { Button } from './button.js';
import { useListNavigation } from '../lib/use-list-navigation.js';

/** One column of a {@link DataTable}. */
export interface Column<T> {
  /** Empty for a column of row buttons: it is named "Actions" for screen readers and scripts, not on screen. */
  readonly header: ReactNode;
  readonly cell: (row: T) => ReactNode;
  /** `cell-actions` keeps a column of row buttons in view when the table scrolls sideways. */
  readonly className?: string;
  readonly align?: 'left' | 'right';
  /**
   * How readily the column gives way when the table is narrower than its content (a laptop's window, a
   * zoomed page): `low` hides first, `medium` next; a column without one always shows. Figures an admin can
   * read in the row's dialog (weight, timeout, owner) give way, so that a status or health stays in view
   * rather than under the row buttons.
   */
  readonly priority?: 'low' | 'medium';
  /**
   * What the column's header sorts the rows by, one button each (a column can hold several figures: a
   * key's status column holds when it was created, last used and expires). The screen does the sorting.
   */
  readonly sort?: readonly ColumnSort[];
}

/** One sort a column's header offers. */
export interface ColumnSort {
  /** The button's text; the header's own text when it is the column's only sort. */
  readonly label: string;
  /** Set on the sort in force: the header then carries `aria-sort`. */
  readonly direction?: 'ascending' | 'descending';
  readonly onSort: () => void;
}

/** What in a row Tab would stop at. */
const ROW_CONTROLS = 'button, a[href], input, select, textarea, [tabindex]';
/** Marks a control taken out of the Tab order here, holding its own `tabindex` (empty: none) to give it back. */
const ROVED = 'data-roved';

/**
 * A grid is one Tab stop (a roving tabindex): only the highlighted row's controls are in the Tab order,
 * so Tab goes from the grid to its highlighted row's buttons and then past the table, not through every
 * row's (five a key: 155 stops for 30 keys). The others stay reachable by pointer and by `j`/`k` first.
 */
function roveRowControls(body: HTMLTableSectionElement, selected: number): void {
  Array.from(body.rows).forEach((row, index) => {
    for (const control of row.querySelectorAll<HTMLElement>(ROW_CONTROLS)) {
      if (index !== selected) {
        if (control.hasAttribute(ROVED) || control.tabIndex < 0) continue;
        control.setAttribute(ROVED, control.getAttribute('tabindex') ?? '');
        control.tabIndex = -1;
      } else if (control.hasAttribute(ROVED)) {
        const own = control.getAttribute(ROVED)!;
        control.removeAttribute(ROVED);
        if (own === '') control.removeAttribute('tabindex');
        else control.setAttribute('tabindex', own);
      }
    }
  });
}

/** A column's header: its text, with its sorts as buttons (the header itself a button when it has one sort). */
function ColumnHeader<T>({ column }: { readonly column: Column<T> }) {
  if (column.header === '') return <ActionsHeader />;
  if (!column.sort?.length) return <>{column.header}</>;
  const only = column.sort.length === 1 && column.sort[0]!.label === column.header;
  return (
    <span className="chip-row">
      {!only && <span>{column.header}</span>}
      {column.sort.map((sort) => (
        <Button
          key={sort.label}
          size="sm"
          variant="ghost"
          aria-pressed={sort.direction !== undefined}
          title={`Sort by ${sort.label.toLowerCase()}`}
          onClick={sort.onSort}
        >
          {sort.label}
          {sort.direction && <span aria-hidden="true">{sort.direction === 'ascending' ? ' ▲' : ' ▼'}</span>}
        </Button>
      ))}
    </span>
  );
}

function columnClass<T>(column: Column<T>): string {
  return [
    column.className,
    column.align === 'right' && 'align-right',
    column.priority && `col-priority-${column.priority}`,
  ]
    .filter(Boolean)
    .join(' ');
}

/**
 * A keyboard-driven table for short lists (branches, checkpoints, keys, models): j/k or arrows
 * move, Enter runs `onOpen`, a click selects. Long lists use the virtualised list instead. A table
 * wider than the screen scrolls sideways in its own frame. The highlighted row is held by its key,
 * so it stays on the same item when the rows change (filtered, refreshed, one removed) and is
 * dropped when that item is gone, rather than landing on whatever row took its place.
 *
 * A table whose rows open something is a grid: focus stays on the table, whose
 * `aria-activedescendant` names the highlighted row (`aria-selected`), so a screen reader announces
 * each j/k move and the row Enter opens. One that only shows figures stays a plain table.
 */
export function DataTable<T>({
  rows,
  columns,
  rowKey,
  onOpen,
  label,
  testId,
  autoFocus,
  focusToken,
  focusRow,
  removedKey,
}: {
  readonly rows: readonly T[];
  readonly columns: readonly Column<T>[];
  readonly rowKey: (row: T) => string;
  readonly onOpen?: (row: T) => void;
  readonly label: string;
  readonly testId?: string;
  readonly autoFocus?: boolean;
  /** A new truthy value moves focus into the table, on its first row when none is highlighted (from a filter's ↓). */
  readonly focusToken?: number;
  /** A new value highlights the row of that key, once it is among the rows, and moves focus to the table (Show more's first new row). */
  readonly focusRow?: { readonly key: string };
  /**
   * The key of the row the user's last delete or revoke removed: when that was the highlighted row, the row
   * that took its place (the one before it, when it was last) is highlighted instead of none, so `j`/`k` and
   * a screen reader go on from there.
   */
  readonly removedKey?: string;
}) {
  const [selectedKey, setSelectedKey] = useState<string>();
  const selected = selectedKey === undefined ? -1 : rows.findIndex((row) => rowKey(row) === selectedKey);
  const select = (index: number): void => setSelectedKey(rowKey(rows[index]!));
  const grid = onOpen !== undefined;
  // Ids from the key, not the position, so a row keeps its id when others come or go; encoded, since
  // an IDREF may hold no space whatever the key.
  const tableId = useId();
  const rowId = (row: T): string => `${tableId}-row-${encodeURIComponent(rowKey(row))}`;
  const body = useRef<HTMLTableSectionElement>(null);
  const nav = useListNavigation({
    count: rows.length,
    index: selected,
    onMove: select,
    onOpen: onOpen ? (index) => onOpen(rows[index]!) : undefined,
  });
  const table = useRef<HTMLTableElement>(null);
  useEffect(() => {
    if (autoFocus) focusUnlessTaken(table.current);
  }, [autoFocus]);
  useEffect(() => {
    if (!focusToken) return;
    table.current?.focus();
    if (selected < 0 && rows.length > 0) select(0);
  }, [focusToken]);
  const focusedRow = useRef<{ readonly key: string }>(undefined);
  useEffect(() => {
    if (!focusRow || focusedRow.current === focusRow || !rows.some((row) => rowKey(row) === focusRow.key)) return;
    focusedRow.current = focusRow;
    setSelectedKey(focusRow.key);
    table.current?.focus();
  }, [focusRow, rows]);
  // Where the highlighted row was last seen, for its neighbour to take over once it is removed.
  const lastSelectedIndex = useRef(-1);
  useEffect(() => {
    if (removedKey === undefined || selectedKey !== removedKey || selected >= 0 || rows.length === 0) return;
    if (lastSelectedIndex.current < 0) return;
    setSelectedKey(rowKey(rows[Math.min(lastSelectedIndex.current, rows.length - 1)]!));
  }, [rows, removedKey]);
  useEffect(() => {
    if (selected >= 0) lastSelectedIndex.current = selected;
  });
  // Every render: rows drawn since (Show more, a refresh) have controls to take out of the Tab order.
  useLayoutEffect(() => {
    if (grid && body.current) roveRowControls(body.current, selected);
  });
  // Only when the highlight moves: a refresh that shifts the row must not scroll the page back to it.
  useEffect(() => {
    body.current?.children[selected]?.scrollIntoView({ block: 'nearest' });
  }, [selectedKey]);
  return (
    // Only a table with columns that give way measures its width: a size container cannot take its
    // width from its content, which a table in a shrink-wrapped box would need.
    <div
      className={columns.some((column) => column.priority) ? 'data-table-scroll data-table-fit' : 'data-table-scroll'}
    >
      <table
        ref={table}
        className="data-table"
        role={grid ? 'grid' : undefined}
        aria-label={label}
        aria-activedescendant={grid && selected >= 0 ? rowId(rows[selected]!) : undefined}
        data-testid={testId}
        {...nav}
      >
        <thead>
          <tr>
            {columns.map((column, index) => (
              <th
                key={index}
                className={columnClass(column)}
                aria-sort={column.sort?.find((sort) => sort.direction)?.direction}
              >
                <ColumnHeader column={column} />
              </th>
            ))}
          </tr>
        </thead>
        <tbody ref={body}>
          {rows.map((row, index) => (
            <tr
              key={rowKey(row)}
              id={grid ? rowId(row) : undefined}
              className={index === selected ? 'is-selected' : undefined}
              aria-selected={grid ? index === selected : undefined}
              onClick={() => select(index)}
              onDoubleClick={() => onOpen?.(row)}
            >
              {columns.map((column, columnIndex) => (
                // `cell`, not the grid's implicit `gridcell`: the cells are read, not focused (the row is).
                <td key={columnIndex} role={grid ? 'cell' : undefined} className={columnClass(column)}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The header of a column of row buttons: blank on screen, where the buttons speak for themselves, but
 * named, so that a screen reader announces the column and `getByRole('columnheader')` finds it.
 */
export function ActionsHeader() {
  return <span className="visually-hidden">Actions</span>;
}
