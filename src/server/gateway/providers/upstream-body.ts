import type { Dispatcher } from 'undici';

/** Chunks held before undici is asked to stop reading the socket (a consumer slower than the upstream). */
const HIGH_WATER_CHUNKS = 64;

/**
 * The most of an answer read whole (a JSON answer, an error body). The largest real one is an
 * embeddings answer at the gateway's own bound (6,291,456 numbers as JSON text, some 130 MB); past
 * this, the upstream is broken or hostile, and the gateway would hold all it sends (and, past 512 MB,
 * fail to make it a string at all).
 */
export const MAX_WHOLE_ANSWER_BYTES = 256 * 1024 * 1024;

/**
 * What of a body's rest is still read, and dropped, once its reader is done: enough for the end that
 * follows a stream's last event, so that undici keeps the connection for the next call.
 */
const DRAIN_BYTES = 64 * 1024;
const DRAIN_MS = 250;

/** An answer read whole that passed {@link MAX_WHOLE_ANSWER_BYTES}: the transfer is stopped. */
export class AnswerTooLargeError extends Error {
  constructor(limit: number) {
    super(`a body larger than ${limit / 1024 / 1024} MiB`);
    this.name = 'AnswerTooLargeError';
  }
}

/**
 * Bytes of answers being read whole, across every request in flight. One answer is bounded by
 * {@link MAX_WHOLE_ANSWER_BYTES}, but a few slow ones at once would each stay under it and together
 * hold gigabytes (more again as text and parsed JSON). Answers cannot wait for room, as large request
 * bodies wait for a turn: one that is half read cannot finish without more, so waiting answers would
 * hold each other up. The answer that would pass the budget is refused instead.
 */
export class AnswerBudget {
  #used = 0;

  constructor(readonly bytes: number) {}

  /** Bytes held by answers being read now. */
  get used(): number {
    return this.#used;
  }

  /** Takes `bytes` from the budget; false, taking nothing, when they do not fit. */
  take(bytes: number): boolean {
    if (this.#used + bytes > this.bytes) return false;
    this.#used += bytes;
    return true;
  }

  /** Gives back bytes taken. */
  give(bytes: number): void {
    this.#used -= bytes;
  }
}

/** The budget of answers read whole that every upstream call shares unless it is given its own. */
export const WHOLE_ANSWERS_BUDGET = new AnswerBudget(2 * MAX_WHOLE_ANSWER_BYTES);

/**
 * An answer read whole that would have taken its {@link AnswerBudget} past its bound: the transfer is
 * stopped. `held`: its bytes so far; `budget.used` is then what the other answers hold.
 */
export class AnswerBudgetExceededError extends Error {
  /**
   * The answer alone is larger than the whole budget, so no later try fits either; otherwise it was
   * refused for the room other answers took at that moment, which they give back once read.
   */
  readonly passesWholeBudget: boolean;

  constructor(held: number, budget: AnswerBudget) {
    const passesWholeBudget = held > budget.bytes;
    super(
      passesWholeBudget
        ? `a body of more than ${mebibytes(held)} MiB, more than the ${mebibytes(budget.bytes)} MiB the gateway holds for answers read at once`
        : `a body of more than ${mebibytes(held)} MiB, while other answers being read held ${mebibytes(budget.used)} MiB of the ${mebibytes(budget.bytes)} MiB the gateway holds for answers read at once`,
    );
    this.name = 'AnswerBudgetExceededError';
    this.passesWholeBudget = passesWholeBudget;
  }
}

/**
 * How long a caller refused for a full budget is asked to wait: the answers filling it are being read
 * at the upstreams' speed, most within a second or two, and give their bytes back as each is read.
 */
export const FULL_BUDGET_RETRY_MS = 1000;

const mebibytes = (bytes: number): string => String(Math.round((bytes / 1024 / 1024) * 10) / 10);

/**
 * The body of an upstream answer as it arrives. Not a stream: a queue of chunks with one waiting
 * consumer, which is all a relay or a whole-body read needs.
 */
export class UpstreamBody implements AsyncIterable<Buffer> {
  #chunks: Buffer[] = [];
  #ended = false;
  #error: Error | undefined;
  #destroyed = false;
  #paused = false;
  #iterating = false;
  #wake: (() => void) | undefined;
  /** Bytes queued before anyone iterated: an answer being read whole. */
  #held = 0;
  #limit = MAX_WHOLE_ANSWER_BYTES;
  /** The budget the held bytes count against, once the body is read whole (see {@link countAgainst}). */
  #budget: AnswerBudget | undefined;
  /** Set while the rest of a given-up body is read to its end (see {@link destroy}). */
  #drain: { bytes: number; timer: NodeJS.Timeout } | undefined;

  constructor(private readonly controller: Dispatcher.DispatchController) {}

  /** True once the body was read to its end, failed, or was given up. */
  get destroyed(): boolean {
    return this.#destroyed || this.#ended || this.#error !== undefined;
  }

  /** @internal the handler's side: a chunk arrived. */
  push(chunk: Buffer): void {
    if (this.#drain !== undefined) {
      this.#drain.bytes += chunk.length;
      if (this.#drain.bytes > DRAIN_BYTES) this.#abortDrain();
      return;
    }
    if (this.#destroyed || this.#error !== undefined) return;
    if (!this.#iterating) {
      if (this.#budget !== undefined && !this.#budget.take(chunk.length)) {
        this.#refuseOverBudget(chunk.length);
        return;
      }
      this.#held += chunk.length;
      if (this.#held > this.#limit) {
        this.#refuseTooLarge();
        return;
      }
    }
    this.#chunks.push(chunk);
    if (this.#iterating && !this.#paused && this.#chunks.length >= HIGH_WATER_CHUNKS) {
      this.#paused = true;
      this.controller.pause();
    }
    this.#notify();
  }

  /** Reads at most `bytes` of a body read whole (an error body, say), instead of MAX_WHOLE_ANSWER_BYTES. */
  limitTo(bytes: number): void {
    this.#limit = bytes;
    if (this.#held > bytes && this.#error === undefined && !this.#destroyed) this.#refuseTooLarge();
  }

  /**
   * Counts the bytes held, and every chunk still to come, against `budget` until the body is taken,
   * fails or is given up; a chunk that does not fit refuses the body.
   */
  countAgainst(budget: AnswerBudget): void {
    if (this.#budget !== undefined || this.#error !== undefined || this.#destroyed) return;
    if (!budget.take(this.#held)) {
      this.#refuse(new AnswerBudgetExceededError(this.#held, budget));
      return;
    }
    this.#budget = budget;
  }

  #refuseTooLarge(): void {
    this.#refuse(new AnswerTooLargeError(this.#limit));
  }

  #refuseOverBudget(arriving: number): void {
    const budget = this.#budget!;
    this.#release();
    this.#refuse(new AnswerBudgetExceededError(this.#held + arriving, budget));
  }

  #refuse(error: Error): void {
    this.#chunks = [];
    this.fail(error);
    if (!this.#ended) this.controller.abort(error);
  }

  /** Gives the held bytes back to the budget: they were taken, dropped or failed. */
  #release(): void {
    if (this.#budget === undefined) return;
    this.#budget.give(this.#held);
    this.#budget = undefined;
  }

  /** @internal the handler's side: the body is complete. */
  end(): void {
    this.#ended = true;
    this.#stopDrain();
    this.#notify();
  }

  /** @internal the handler's side: the transfer failed. */
  fail(error: Error): void {
    this.#error ??= error;
    this.#release();
    this.#stopDrain();
    this.#notify();
  }

  /** The whole body as UTF-8 text; rejects with the transport error if the transfer fails. */
  async text(): Promise<string> {
    while (!this.#ended) {
      if (this.#error) throw this.#error;
      if (this.#destroyed) throw new Error('upstream body was destroyed');
      await this.#next();
    }
    // A body refused for its size after it had all arrived.
    if (this.#error) throw this.#error;
    return this.#takeText();
  }

  /**
   * The whole body as UTF-8 text if it has already arrived, else undefined. A small answer usually
   * arrives in the packet that carried its headers, so the reader needs no promise for it.
   */
  textIfComplete(): string | undefined {
    return this.#ended && !this.#destroyed && this.#error === undefined ? this.#takeText() : undefined;
  }

  #takeText(): string {
    const parts = this.#chunks;
    this.#chunks = [];
    const text = parts.length === 1 ? parts[0]!.toString('utf8') : Buffer.concat(parts).toString('utf8');
    this.#release();
    return text;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Buffer> {
    this.#iterating = true;
    try {
      for (;;) {
        const chunk = this.#chunks.shift();
        if (chunk !== undefined) {
          if (this.#paused && this.#chunks.length < HIGH_WATER_CHUNKS / 4) {
            this.#paused = false;
            this.controller.resume();
          }
          yield chunk;
          continue;
        }
        if (this.#error) throw this.#error;
        if (this.#ended || this.#destroyed) return;
        await this.#next();
      }
    } finally {
      // A consumer that stops early (break, return, throw) gives the body up.
      this.destroy();
    }
  }

  /**
   * Gives the body up and drops what is queued. A stream's reader stops at its last event (`[DONE]`,
   * `message_stop`), just before the body's end arrives: the rest is read and dropped, for at most
   * DRAIN_BYTES and DRAIN_MS, so that undici keeps the connection (over TLS, a handshake saved per
   * stream); a body that goes on is aborted, closing it. A client that leaves aborts the exchange
   * itself, at once, without this.
   */
  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.#chunks = [];
    this.#release();
    if (!this.#ended && this.#error === undefined) {
      if (this.#paused) {
        this.#paused = false;
        this.controller.resume();
      }
      this.#drain = { bytes: 0, timer: setTimeout(abortDrain, DRAIN_MS, this) };
      this.#drain.timer.unref();
    }
    this.#notify();
  }

  /** @internal the drain's timer: the body did not end in time. */
  abortDrainNow(): void {
    this.#abortDrain();
  }

  #abortDrain(): void {
    if (this.#drain === undefined) return;
    this.#stopDrain();
    this.controller.abort(new Error('upstream body destroyed before its end'));
  }

  #stopDrain(): void {
    if (this.#drain === undefined) return;
    clearTimeout(this.#drain.timer);
    this.#drain = undefined;
  }

  #next(): Promise<void> {
    return new Promise((resolve) => {
      this.#wake = resolve;
    });
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}

function abortDrain(body: UpstreamBody): void {
  body.abortDrainNow();
}
