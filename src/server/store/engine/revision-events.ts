/** A new revision at the head of a branch (after its write transaction committed). */
export interface RevisionEvent {
  readonly namespace: string;
  readonly branch: string;
  readonly revision: number;
}

/** A listener of new revisions. */
export type RevisionListener = (event: RevisionEvent) => void;

/**
 * In-process notice of new store revisions, for features of the same process that follow a branch
 * (RAG collections re-index on it). Listeners run after the write committed, on a later tick, so a
 * slow or failing listener never delays or fails the write's answer.
 */
export class RevisionEvents {
  private readonly listeners = new Set<RevisionListener>();

  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: RevisionListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tells every listener about a committed revision. */
  publish(event: RevisionEvent): void {
    for (const listener of this.listeners)
      setImmediate(() => {
        try {
          listener(event);
        } catch {
          // A listener's failure is its own to report; the store's write already succeeded.
        }
      });
  }
}
