import type { NotKeptReason } from '../../../shared/cache-api.js';
import type { Endpoint } from '../pipeline/request-context.js';

/** A reason's lines are this far apart at least: a batch job re-sending large answers writes one a minute. */
const LOG_INTERVAL_MS = 60_000;

/**
 * Warns that an answer was not kept because it is larger than `cache.max_entry_bytes`, at most once a
 * minute per reason (the ones in between are counted into the next line). Names the endpoint, the
 * model, the size and the setting; never any content.
 */
export class NotKeptLog {
  readonly #lastAt = new Map<NotKeptReason, number>();
  readonly #quiet = new Map<NotKeptReason, number>();

  constructor(
    private readonly warn: (message: string) => void,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** An answer of `bytes` (at least, for a stream cut short of its end) over `maxEntryBytes`. */
  tooLarge(endpoint: Endpoint, model: string, bytes: number, maxEntryBytes: number): void {
    const quiet = this.#due('too_large');
    if (quiet === undefined) return;
    this.warn(
      `cache: answer not kept (endpoint ${endpoint}, model ${model}, ${bytes} bytes): larger than ` +
        `cache.max_entry_bytes (${maxEntryBytes}), so every identical request calls the provider again; ` +
        `raise cache.max_entry_bytes to keep such answers` +
        (quiet > 0 ? ` (${quiet} more not kept for this reason since the last such line)` : ''),
    );
  }

  /** How many lines of `reason` were held back since its last one, when a line is due; undefined when not. */
  #due(reason: NotKeptReason): number | undefined {
    const now = this.now();
    const last = this.#lastAt.get(reason);
    if (last !== undefined && now - last < LOG_INTERVAL_MS) {
      this.#quiet.set(reason, (this.#quiet.get(reason) ?? 0) + 1);
      return undefined;
    }
    const quiet = this.#quiet.get(reason) ?? 0;
    this.#lastAt.set(reason, now);
    this.#quiet.set(reason, 0);
    return quiet;
  }
}
