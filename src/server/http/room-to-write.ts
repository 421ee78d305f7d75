import type { Writable } from 'node:stream';

/** What ends the wait besides `drain`: the stream itself closing, or a watch of the client's leaving. */
interface EndSignal {
  once(event: string, listener: () => void): unknown;
  off(event: string, listener: () => void): unknown;
}

/**
 * Resolves when the stream wants more (`drain`), or when `end` says nothing more will be written
 * (the stream's `close` by default): how a writer waits on backpressure without waiting forever.
 */
export function roomToWrite(stream: Writable, end: EndSignal = stream, endEvent = 'close'): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      stream.off('drain', done);
      end.off(endEvent, done);
      resolve();
    };
    stream.once('drain', done);
    end.once(endEvent, done);
  });
}
