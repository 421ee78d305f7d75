import { setHideWhitespace, useHideWhitespace } from '../../lib/diff-mode.js';

/** "Hide whitespace changes": lines that differ only in whitespace read as unchanged, in every diff (as `git diff -w`). */
export function HideWhitespaceToggle() {
  const hide = useHideWhitespace();
  return (
    <label className="checkbox" title="Show lines that differ only in spaces, tabs or line endings as unchanged">
      <input
        type="checkbox"
        checked={hide}
        onChange={(event) => setHideWhitespace(event.target.checked)}
        data-testid="hide-whitespace"
      />
      Hide whitespace changes
    </label>
  );
}
