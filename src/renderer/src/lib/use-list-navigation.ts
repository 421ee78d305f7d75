import { useCallback, type KeyboardEvent } from 'react';

/** True when a key press belongs to a text field rather than to shortcuts. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/**
 * True when a key press lands on a control inside the list (a row's button or link): Enter there
 * presses that control, and must not also open the row the list has highlighted.
 */
function isControlInside(event: KeyboardEvent<HTMLElement>): boolean {
  const { target, currentTarget } = event;
  return target instanceof HTMLElement && target !== currentTarget && target.matches('button, a[href]');
}

/** What a keyboard-driven list needs to know. */
export interface ListNavigationOptions {
  readonly count: number;
  /** The highlighted index, or -1. */
  readonly index: number;
  readonly onMove: (index: number) => void;
  /** Enter on the highlighted item. */
  readonly onOpen?: (index: number) => void;
  /**
   * Enter with nothing highlighted opens the first item: for lists where opening only shows the item
   * (live traffic's drawer). Lists whose Enter starts an edit leave it off, so it acts only on a row
   * the user chose.
   */
  readonly openFirst?: boolean;
  /** Esc. */
  readonly onClose?: () => void;
  /** Rows per PageUp/PageDown. */
  readonly page?: number;
  /** End, in a list read in pages: goes to the last item of the whole list, not of the pages read so far. */
  readonly onEnd?: () => void;
  /**
   * Set while the chosen item is not among those read yet (a link to a revision whose page of the log
   * is still loading): relative moves (j/k, arrows, PageUp/PageDown) call it with how far they go,
   * to go on from that item once it is read, rather than starting from the first.
   */
  readonly onMoveUnread?: (by: number) => void;
}

/**
 * Keyboard handling for a focusable list: j/k or arrows move, Home/End and PageUp/PageDown jump,
 * Enter opens, Esc closes. Spread the result on the list element (it must be focusable).
 */
export function useListNavigation({
  count,
  index,
  onMove,
  onOpen,
  openFirst = false,
  onClose,
  page = 10,
  onEnd,
  onMoveUnread,
}: ListNavigationOptions) {
  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLElement>) => {
      if (isTypingTarget(event.target) || event.metaKey || event.ctrlKey || event.altKey) return;
      const move = (to: number): void => {
        event.preventDefault();
        if (count > 0) onMove(Math.max(0, Math.min(count - 1, to)));
      };
      // `unset`: where the move goes when nothing is highlighted and no chosen item is being read.
      const moveBy = (by: number, unset: number): void => {
        if (index >= 0 || !onMoveUnread) return move(index >= 0 ? index + by : unset);
        event.preventDefault();
        onMoveUnread(by);
      };
      switch (event.key) {
        case 'j':
        case 'ArrowDown':
          return moveBy(1, 0);
        case 'k':
        case 'ArrowUp':
          return moveBy(-1, 0);
        case 'Home':
          return move(0);
        case 'End':
          move(count - 1);
          onEnd?.();
          return;
        case 'PageDown':
          return moveBy(page, page - 1);
        case 'PageUp':
          return moveBy(-page, 0);
        case 'Enter': {
          const opened = index >= 0 ? index : openFirst && count > 0 ? 0 : -1;
          if (opened >= 0 && onOpen && !isControlInside(event)) {
            event.preventDefault();
            onOpen(opened);
          }
          return;
        }
        case 'Escape':
          if (onClose) {
            event.preventDefault();
            onClose();
          }
          return;
        default:
          return;
      }
    },
    [count, index, onMove, onOpen, openFirst, onClose, page, onEnd, onMoveUnread],
  );
  return { onKeyDown, tabIndex: 0 };
}
