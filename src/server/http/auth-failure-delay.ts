import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';

/**
 * Refused credentials a service answers at full speed within a minute: a mistyped key, or a script
 * holding a stale one, never waits. Everything local shares 127.0.0.1, so the count is per service,
 * not per address: a lockout per address would lock every local tool out for one misconfigured one.
 */
export const FREE_FAILURES_PER_MINUTE = 10;
const WINDOW_MS = 60_000;
/** Each refusal past the free ones waits this much longer than the one before, up to the cap. */
const DELAY_STEP_MS = 100;
/** The longest wait: a guesser gets about one try a second per connection, a person barely notices. */
export const MAX_FAILURE_DELAY_MS = 1_000;
/** The refusals remembered: past this many in the window the delay is at its cap anyway. */
const REMEMBERED = FREE_FAILURES_PER_MINUTE + MAX_FAILURE_DELAY_MS / DELAY_STEP_MS;
/** At most one warning per this long, counting the refusals it stands for, so a flood cannot fill the log. */
const LOG_EVERY_MS = 10_000;

/** True for a refusal of the credentials sent (a 401): a wrong master key, API key or store token. */
export function isCredentialRefusal(error: unknown): boolean {
  return (error as { type?: unknown } | null)?.type === 'authentication_error';
}

/**
 * Slows the answers to refused credentials once they repeat: past {@link FREE_FAILURES_PER_MINUTE}
 * in a minute, each further refusal is answered after a delay growing to {@link MAX_FAILURE_DELAY_MS}.
 * Requests whose credentials are valid never reach it, so they are never delayed. Only the answer
 * waits (a timer, no work); a client that leaves, or the service closing, ends the wait at once.
 */
export class AuthFailureDelay {
  /** Times of the latest refusals, oldest first (at most {@link REMEMBERED}). */
  private readonly recent: number[] = [];
  /** Answers waiting, each ending its own wait when called. */
  private readonly waiting = new Set<() => void>();
  private closing = false;
  private slowedSinceLog = 0;
  private loggedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly log: () => FastifyBaseLogger,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Answers a refused request through `answer`: at once while refusals are few, else after its delay. */
  hold(request: FastifyRequest, response: ServerResponse, answer: () => void): void {
    const delayMs = this.closing ? 0 : this.delayFor(this.now());
    if (delayMs === 0) return answer();
    this.noteSlowed(request, delayMs);
    const release = (): void => {
      clearTimeout(timer);
      response.off('close', release);
      this.waiting.delete(release);
      answer();
    };
    const timer = setTimeout(release, delayMs);
    // A client that left is answered (into a closed socket) now: nothing waits for nobody.
    response.once('close', release);
    this.waiting.add(release);
  }

  /** Answers every waiting refusal now, and the later ones without delay: closing waits on no timer. */
  releaseAll(): void {
    this.closing = true;
    for (const release of [...this.waiting]) release();
  }

  /** Records a refusal at `now` and returns its delay: 0 for the first ones of the window. */
  private delayFor(now: number): number {
    this.recent.push(now);
    if (this.recent.length > REMEMBERED) this.recent.shift();
    let inWindow = 0;
    for (const at of this.recent) if (now - at < WINDOW_MS) inWindow += 1;
    const past = inWindow - FREE_FAILURES_PER_MINUTE;
    return past <= 0 ? 0 : Math.min(MAX_FAILURE_DELAY_MS, past * DELAY_STEP_MS);
  }

  private noteSlowed(request: FastifyRequest, delayMs: number): void {
    this.slowedSinceLog += 1;
    const now = this.now();
    if (now - this.loggedAt < LOG_EVERY_MS) return;
    // Where the latest came from and what it asked for; never the credential it sent.
    this.log().warn(
      {
        remote: request.ip,
        method: request.method,
        path: request.routeOptions.url ?? request.url.split('?')[0],
        slowed: this.slowedSinceLog,
        delay_ms: delayMs,
      },
      `refused credentials are repeating (more than ${FREE_FAILURES_PER_MINUTE} a minute): each further refusal is answered after up to ${MAX_FAILURE_DELAY_MS} ms; valid credentials are not delayed`,
    );
    this.loggedAt = now;
    this.slowedSinceLog = 0;
  }
}
