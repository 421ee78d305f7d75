import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { ApiError } from '../api/http.js';
import type { FieldProblem } from '../lib/field-problems.js';
import { plural } from '../lib/format.js';
import { useUnsavedChanges } from '../lib/unsaved-changes.js';
import { useSaveBarRoom } from './use-save-bar-room.js';
import { Button } from './button.js';

/** Why a draft cannot be saved yet: the first problem, how many there are, and the control to fix it in. */
export interface SaveBlocker {
  readonly message: string;
  readonly count: number;
  readonly fieldId?: string;
}

/** The save bar's blocker for a draft's problems: the first one, and how many there are; undefined when none. */
export function blockerOf(problems: readonly FieldProblem[]): SaveBlocker | undefined {
  const first = problems[0];
  return first && { message: first.message, count: problems.length, fieldId: first.fieldId };
}

/** Scrolls the control with a problem into view and puts the cursor in it. */
function showField(id: string | undefined): void {
  const field = id ? document.getElementById(id) : null;
  if (!field) return;
  field.scrollIntoView({ block: 'center' });
  field.focus({ preventScroll: true });
}

/**
 * The save's failure while it still describes the draft on screen: an edit after it starts over, so
 * the bar never blames the new draft for what the server said about the old one.
 */
function useFailureOfThisDraft(error: unknown, draft: string): unknown {
  const [seen, setSeen] = useState<{ readonly error: unknown; readonly draft: string }>();
  if (error && seen?.error !== error) {
    setSeen({ error, draft });
    return error;
  }
  return error && seen?.draft === draft ? error : undefined;
}

/**
 * Ctrl+S (⌘S on a Mac) saves the draft, as in an editor, instead of the browser's "Save page as";
 * a draft that cannot be saved shows its first problem. Not while a dialog is open over the screen:
 * the keys then belong to the dialog, whose draft is not this one.
 */
function useSaveShortcut(save: () => void): void {
  const latest = useRef(save);
  latest.current = save;
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent): void => {
      if (event.key.toLowerCase() !== 's' || !(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey)
        return;
      if (document.querySelector('dialog[open]')) return;
      event.preventDefault();
      latest.current();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}

/** The failure in one line: the server's own words and the request id to look it up by. */
function failureText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return error instanceof ApiError && error.requestId ? `${message} (request id ${error.requestId})` : message;
}

/**
 * The bar that floats over a screen with unsaved changes: what changed, Discard and Save. When the
 * draft cannot be saved, the bar says why next to the disabled Save (which it describes) and offers
 * to take the user to the first problem. While it shows, leaving the screen (`screen` names it) or
 * the page asks first, so every screen with a save bar guards its draft the same way. A save the
 * server refused says why in the bar itself, where the user just pressed Save (the page below may be
 * scrolled anywhere), until the draft is edited again.
 */
export function SaveBar({
  screen,
  children,
  onDiscard,
  onSave,
  busy = false,
  blocker,
  error,
  failureLead = 'Not saved',
  draft,
  saveTestId,
}: {
  readonly screen: string;
  readonly children: ReactNode;
  readonly onDiscard: () => void;
  readonly onSave: () => void;
  readonly busy?: boolean;
  readonly blocker?: SaveBlocker;
  /** The last save's failure, if it failed. */
  readonly error?: unknown;
  /** What the failure left unsaved, when not everything (a save of two documents whose first went through). */
  readonly failureLead?: string;
  /** The draft as JSON: a failure is shown only while the draft is the one that was sent. */
  readonly draft: string;
  readonly saveTestId?: string;
}) {
  const reasonId = useId();
  useUnsavedChanges(screen);
  const failure = useFailureOfThisDraft(error, draft);
  const bar = useRef<HTMLDivElement>(null);
  useSaveBarRoom(bar);
  useSaveShortcut(() => (blocker ? showField(blocker.fieldId) : busy ? undefined : onSave()));
  return (
    <div ref={bar} className="save-bar" role="region" aria-label="Unsaved changes">
      <span className="save-bar-text">{children}</span>
      {/* Always in the document, so a screen reader announces the reason when it appears. */}
      <span className="save-bar-blocked" id={reasonId} role="status" data-testid="save-blocked">
        {blocker &&
          `Save is disabled: ${blocker.message}${blocker.count > 1 ? ` (and ${plural(blocker.count - 1, 'more problem', 'more problems')})` : ''}`}
      </span>
      {failure !== undefined && (
        <span className="save-bar-blocked" role="alert" data-testid="save-failed">
          {failureLead}: {failureText(failure)}
        </span>
      )}
      {blocker?.fieldId && (
        <Button variant="secondary" onClick={() => showField(blocker.fieldId)} data-testid="show-problem">
          Show problem
        </Button>
      )}
      <Button variant="ghost" onClick={onDiscard}>
        Discard
      </Button>
      <Button
        variant="primary"
        busy={busy}
        disabled={Boolean(blocker)}
        aria-describedby={blocker ? reasonId : undefined}
        data-testid={saveTestId}
        onClick={onSave}
      >
        Save changes
      </Button>
    </div>
  );
}
