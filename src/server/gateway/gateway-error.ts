import type { DomainErrorKind } from '../http/errors.js';

/** What kind of expected failure a gateway service hit; the HTTP edge maps each to a status. */
export type GatewayErrorKind = DomainErrorKind;

/**
 * An expected failure of a gateway service (a setting that cannot be used, an unknown key): services
 * speak in these, and only the routes turn them into HTTP answers (httpErrorFor).
 */
export class GatewayError extends Error {
  constructor(
    readonly kind: GatewayErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'GatewayError';
  }
}
