import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Refused credentials a service answers at full speed within a minute: a mistyped key, or a script
 * holding a stale one, never waits. Everything local shares 127.0.0.1, so the count is per service,
 * not per address: a lockout per address would lock every local tool out for one misconfigured one.
 */
export const FREE_FAILURES_PER_MINUTE = 10;
const WINDOW_MS = 60_000;
/**
 * Past the free ones, refusals are answered at most this many a second, through one queue per
 * service: a guesser gets about one try a second however many connections it opens.
 */
export const REFUSALS_PER_SECOND = 1;
const RELEASE_INTERVAL_MS = 1_000 / REFUSALS_PER_SECOND;
/**
 * The refusals that may wait their turn (about a minute's worth): past them a refusal is answered at
 * once with 429, so a flood holds no more sockets than this.
 */
export const MAX_WAITING_REFUSALS = 60;
/** At most one warning per this long, counting the refusals it stands for, so a flood cannot fill the log. */
const LOG_EVERY_MS = 10_000;

/** True for a refusal of the credentials sent (a 401): a wrong master key, API key or store token. */
export function isCredentialRefusal(error: unknown): boolean {
  return (error as { type?: unknown } | null)?.type === 'authentication_error';
}

/**
 * Slows the answers to refused credentials once they repeat: past {@link FREE_FAILURES_PER_MINUTE}
 * in a minute, refusals are answered in arrival order, at most {@link REFUSALS_PER_SECOND} a second
 * whether they come one after another or in parallel; past {@link MAX_WAITING_REFUSALS} waiting, at
 * once with 429 and `Retry-After`. Requests whose credentials are valid never reach it, so they are
 * never delayed. Only the answer waits (one timer, no work); a client that leaves gives up its place,
 * and the service closing answers every wait at once.
 */
export class AuthFailureDelay {
  /** Times of the latest refusals, oldest first (at most {@link FREE_FAILURES_PER_MINUTE}). */
  private readonly recent: number[] = [];
  /** Answers waiting, in arrival order, each ending its own wait when called. */
  private readonly waiting = new Set<() => void>();
  /** When the next refusal past the free ones may be answered. */
  private nextReleaseAt = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;
  private closing = false;
  private slowedSinceLog = 0;
  private turnedAwaySinceLog = 0;
  private loggedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly log: () => FastifyBaseLogger,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Answers a refused request through `answer`: at once while refusals are few, else in its turn or with 429. */
  hold(request: FastifyRequest, reply: FastifyReply, answer: () => void): void {
    const now = this.now();
    if (this.closing || this.isFree(now)) return answer();
    if (this.waiting.size === 0 && now >= this.nextReleaseAt) {
      this.nextReleaseAt = now + RELEASE_INTERVAL_MS;
      this.note(request, 'slowed', 0);
      return answer();
    }
    if (this.waiting.size >= MAX_WAITING_REFUSALS) {
      this.note(request, 'turnedAway', this.waitMs(now));
      turnAway(reply, Math.max(1, Math.ceil((this.nextReleaseAt - now) / 1_000)));
      return answer();
    }
    this.note(request, 'slowed', this.waitMs(now));
    const response = reply.raw;
    const release = (): void => {
      response.off('close', release);
      this.waiting.delete(release);
      answer();
    };
    // A client that left is answered (into a closed socket) now, and its place goes to the next one.
    response.once('close', release);
    this.waiting.add(release);
    this.schedule(now);
  }

  /** Answers every waiting refusal now, and the later ones without delay: closing waits on no timer. */
  releaseAll(): void {
    this.closing = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const release of [...this.waiting]) release();
  }

  /** Records a refusal at `now`: true for the first ones of the window. */
  private isFree(now: number): boolean {
    const oldest = this.recent.length < FREE_FAILURES_PER_MINUTE ? undefined : this.recent.shift();
    this.recent.push(now);
    return oldest === undefined || now - oldest >= WINDOW_MS;
  }

  /** How long a refusal arriving at `now` would wait behind those already waiting. */
  private waitMs(now: number): number {
    return Math.max(0, this.nextReleaseAt - now) + this.waiting.size * RELEASE_INTERVAL_MS;
  }

  /** Arms the one timer that answers the oldest waiting refusal when its turn comes. */
  private schedule(now: number): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        const oldest = this.waiting.values().next();
        if (oldest.done) return;
        const released = this.now();
        this.nextReleaseAt = released + RELEASE_INTERVAL_MS;
        oldest.value();
        if (this.waiting.size > 0) this.schedule(released);
      },
      Math.max(0, this.nextReleaseAt - now),
    );
  }

  private note(request: FastifyRequest, what: 'slowed' | 'turnedAway', delayMs: number): void {
    if (what === 'slowed') this.slowedSinceLog += 1;
    else this.turnedAwaySinceLog += 1;
    const now = this.now();
    if (now - this.loggedAt < LOG_EVERY_MS) return;
    // Where the latest came from and what it asked for; never the credential it sent.
    this.log().warn(
      {
        remote: request.ip,
        method: request.method,
        path: request.routeOptions.url ?? request.url.split('?')[0],
        slowed: this.slowedSinceLog,
        turned_away: this.turnedAwaySinceLog,
        waiting: this.waiting.size,
        delay_ms: Math.round(delayMs),
      },
      `refused credentials are repeating (more than ${FREE_FAILURES_PER_MINUTE} a minute): further refusals are answered at most ${REFUSALS_PER_SECOND} a second, and past ${MAX_WAITING_REFUSALS} waiting at once with 429; valid credentials are not delayed`,
    );
    this.loggedAt = now;
    this.slowedSinceLog = 0;
    this.turnedAwaySinceLog = 0;
  }
}

/**
 * Turns the 401 about to be sent into a 429 with `Retry-After`. An onError hook cannot change the
 * error Fastify answers, so the answer is swapped as it is serialized, keeping its envelope
 * (Anthropic's or OpenAI's) and every header set for it.
 */
function turnAway(reply: FastifyReply, retryAfterSeconds: number): void {
  reply.header('retry-after', String(retryAfterSeconds));
  reply.serializer((payload: unknown) => {
    reply.code(429);
    const body = payload as { readonly error?: object };
    return JSON.stringify({
      ...body,
      error: {
        ...body.error,
        type: 'rate_limit_exceeded',
        message: `credentials refused, and ${MAX_WAITING_REFUSALS} refusals already wait their turn (refused credentials are answered at most ${REFUSALS_PER_SECOND} a second); try again in ${retryAfterSeconds} s`,
        code: 429,
      },
    });
  });
}
