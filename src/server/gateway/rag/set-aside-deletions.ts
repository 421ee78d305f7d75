import { eventLoopTurns } from './event-loop-turns.js';
import type { RagRepository } from './rag.repository.js';

/**
 * Chunks written (or deleted) in one turn of the event loop: each is indexed for full-text search by
 * trigger, a fraction of a millisecond, so a slice stays within a few tens of milliseconds.
 */
export const CHUNKS_PER_WRITE = 100;

/** Deletes what is set aside (see setAsideMark), CHUNKS_PER_WRITE chunks a turn of the event loop. */
export class SetAsideDeletions {
  /** Deletions of documents set aside, running in the background (see inBackground). */
  private readonly running = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private readonly repository: RagRepository,
    private readonly log: (message: string, error: unknown) => void,
  ) {}

  /**
   * Deletes documents set aside under `mark` with their chunks (each is taken out of the full-text
   * index too), after the caller answers. Stops when closed; the next start deletes what is left (see
   * RagRepository.discardLeftovers).
   */
  inBackground(mark: string): void {
    const run = async (): Promise<void> => {
      do await eventLoopTurns.next();
      while (!this.closed && this.repository.deleteSetAsideSlice(mark, CHUNKS_PER_WRITE));
    };
    const deletion = run()
      .catch((error: unknown) => this.log('RAG: could not delete the chunks of deleted documents', error))
      .finally(() => this.running.delete(deletion));
    this.running.add(deletion);
  }

  /** Deletes chunks set aside under `mark` (no document of theirs), awaiting a turn of the event loop between slices. */
  async chunks(mark: string): Promise<void> {
    while (this.repository.deleteSetAside(mark, CHUNKS_PER_WRITE) === CHUNKS_PER_WRITE) await eventLoopTurns.next();
  }

  /** Stops the deletions under way after their current slice. */
  async close(): Promise<void> {
    this.closed = true;
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }
}
