import { randomBytes } from 'node:crypto';
import { secretsEqual } from '../../http/secrets.js';
import { PendingStore } from './pending-store.js';
import { SsoError } from './sso-errors.js';

/** Where the browser confirms a hand-off to a loopback program; `request` names the confirmation. */
export const CONSENT_PATH = '/sso/consent';

/** A finished sign-in for a program on a loopback port, held until the user allows or denies it. */
export interface ConsentRequest<T> {
  /** The sign-in cookie of the browser that signed in: only it may see or answer the question. */
  readonly binding: string;
  /** One-time token of the page's form: a page the gateway did not serve cannot know it. */
  readonly token: string;
  readonly returnTo: URL;
  /** What the hand-off will carry once allowed. */
  readonly handoff: T;
}

/**
 * Confirmations waiting for the user. Any program on the machine can listen on a loopback port and
 * start a sign-in with a challenge of its own, so the user, not the link, decides whether the program
 * named by its port gets a key. The cookie alone proves little here: every port of 127.0.0.1 is the
 * same site, so a program's own page sends it along with a POST; the form's token is what it cannot
 * read.
 */
export class LoopbackConsents<T> {
  private readonly pending: PendingStore<ConsentRequest<T>>;

  constructor(ttlMs: number, maxEntries: number, now: () => number) {
    this.pending = new PendingStore(ttlMs, maxEntries, now);
  }

  /** Holds a finished sign-in until it is answered; returns the confirmation's id. */
  ask(binding: string, returnTo: URL, handoff: T): string {
    const id = randomBytes(24).toString('base64url');
    this.pending.put(id, { binding, token: randomBytes(32).toString('base64url'), returnTo, handoff });
    return id;
  }

  /** The confirmation, for its page; refused to any browser but the one that signed in. */
  show(id: string, binding: string | undefined): ConsentRequest<T> {
    const request = this.pending.peek(id);
    if (request === undefined) throw unknownRequest();
    if (binding === undefined || !secretsEqual(binding, request.binding)) throw otherBrowser();
    return request;
  }

  /**
   * Uses the confirmation up, once its cookie and form token check out. A forged answer is refused
   * without using it up, so it cannot take the question away from the user either.
   */
  answer(id: string, binding: string | undefined, token: string): ConsentRequest<T> {
    const request = this.show(id, binding);
    if (!secretsEqual(token, request.token))
      throw new SsoError('permission_error', "this answer did not come from the gateway's confirmation page");
    this.pending.take(id);
    return request;
  }
}

function unknownRequest(): SsoError {
  return new SsoError(
    'invalid_request_error',
    'this confirmation is unknown, already answered or expired; start the sign-in again from the program',
  );
}

function otherBrowser(): SsoError {
  return new SsoError(
    'invalid_request_error',
    'this confirmation belongs to a sign-in in another browser (the sign-in cookie does not match)',
  );
}
