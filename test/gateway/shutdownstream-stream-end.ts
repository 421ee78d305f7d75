/** A stream read in the background, and how it ended. */
export interface StreamBeingRead {
  /** The error that ended the stream, or undefined if it ended without one. */
  readonly ended: Promise<unknown>;
}

/** Reads a stream until its first event, then goes on reading it in the background. */
export async function readUntilEnd(stream: AsyncIterable<unknown>): Promise<StreamBeingRead> {
  const iterator = stream[Symbol.asyncIterator]();
  await iterator.next();
  const ended = (async () => {
    try {
      while (!(await iterator.next()).done);
      return undefined;
    } catch (error) {
      return error;
    }
  })();
  // Wrapped: an async function that returned the promise itself would wait for the whole stream.
  return { ended };
}
