import { useEffect, useRef, useState } from 'react';

/** An edit of server data: the draft, its setter, and whether the server's data changed under it. */
export interface ServerDraft<S, T> {
  readonly draft: T | undefined;
  readonly setDraft: (value: T) => void;
  /** The server's data changed (another client, another window) while this draft held edits. */
  readonly changedElsewhere: boolean;
  /** Drops the edits: the draft becomes the server's data again. */
  readonly discard: () => void;
  /** The draft was saved and the server answered `data` (the edits with what it added, such as ids): the draft becomes it. */
  readonly saved: (data: S) => void;
}

/**
 * A draft that follows the server's data until it is edited, then keeps the edits: a refetch (a live
 * update, a window refocus) must never throw away what is being typed. `toDraft` turns server data
 * into draft values; its result is compared as JSON to tell an edited draft from an untouched one.
 */
export function useServerDraft<S, T>(server: S | undefined, toDraft: (data: S) => T): ServerDraft<S, T> {
  const [draft, setDraftState] = useState<T>();
  const [changedElsewhere, setChangedElsewhere] = useState(false);
  // The server data the draft was last taken from, as JSON.
  const base = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (server === undefined) return;
    const next = toDraft(server);
    const nextJson = JSON.stringify(next);
    // The draft of the render this effect follows: the one on screen.
    const currentJson = draft === undefined ? undefined : JSON.stringify(draft);
    const edited = currentJson !== undefined && currentJson !== base.current && currentJson !== nextJson;
    setChangedElsewhere(edited);
    if (!edited) setDraftState(next);
    base.current = nextJson;
    // toDraft is a pure mapping: only new server data re-runs this.
  }, [server]);
  const saved = (data: S): void => {
    const next = toDraft(data);
    base.current = JSON.stringify(next);
    setDraftState(next);
    setChangedElsewhere(false);
  };
  const discard = (): void => {
    if (server !== undefined) saved(server);
  };
  const setDraft: (value: T) => void = setDraftState;
  return { draft, setDraft, changedElsewhere, discard, saved };
}
