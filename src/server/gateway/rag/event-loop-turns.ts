/**
 * Turns of the event loop handed out one at a time, first come first served: however many retrievals
 * score at once, one slice of work runs per turn and the I/O of every other request goes between.
 * (Each waiting on its own setImmediate instead, all their slices would run back to back in one turn.)
 */
class EventLoopTurns {
  private readonly waiting: Array<() => void> = [];
  private scheduled = false;

  /** Resolves on a turn of the event loop of its own. */
  next(): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.waiting.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.waiting.shift()?.();
      this.schedule();
    });
  }
}

/** The process's turns: every retrieval's slices take their place in one line. */
export const eventLoopTurns = new EventLoopTurns();
