import { useEffect, useRef } from 'react';
import { focusScreenStart } from '../lib/focus-unless-taken.js';

/**
 * Moves focus to the new screen's heading when the screen changes (a sidebar link, a `g` shortcut, a
 * link to another screen, Back or Forward), as GitHub does. Not on the first screen shown, where the
 * page's own start is, nor when only the query changes: a filter, a grouping or a selected row keeps
 * focus where the user is, on the same screen.
 */
export function useScreenChangeFocus(path: string, screenId: string): void {
  const shown = useRef(path);
  useEffect(() => {
    if (shown.current === path) return;
    shown.current = path;
    focusScreenStart(document.getElementById(screenId));
  }, [path, screenId]);
}
