import type { ErrorType } from '../../../shared/errors.js';

/** An expected failure of a sign-in step, with the error type the HTTP edge answers. */
export class SsoError extends Error {
  constructor(
    readonly type: Extract<
      ErrorType,
      'invalid_request_error' | 'authentication_error' | 'permission_error' | 'not_found_error' | 'upstream_error'
    >,
    message: string,
    /**
     * The words for where anyone with the link may read them (a failed sign-in's reference, a loopback
     * program's address) when `message` names the account: it goes to the log and the admin only.
     */
    readonly publicMessage?: string,
  ) {
    super(message);
    this.name = 'SsoError';
  }
}
