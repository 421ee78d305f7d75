import { badRequest, conflict, forbidden, notFound, type AppError } from '../http/errors.js';

/** What kind of expected failure a gateway service hit; the HTTP edge maps each to a status. */
export type GatewayErrorKind = 'invalid' | 'not_found' | 'conflict' | 'forbidden';

/**
 * An expected failure of a gateway service (a setting that cannot be used, an unknown key): services
 * speak in these, and only the routes turn them into HTTP answers.
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

/** The HTTP error for a service's failure; other errors pass through unchanged. */
export function toHttpError(error: unknown): unknown {
  if (!(error instanceof GatewayError)) return error;
  switch (error.kind) {
    case 'invalid':
      return badRequest(error.message);
    case 'not_found':
      return notFound(error.message);
    case 'conflict':
      return conflict(error.message);
    case 'forbidden':
      return forbidden(error.message);
    default:
      return assertNever(error.kind);
  }
}

function assertNever(value: never): AppError {
  throw new Error(`unexpected gateway error kind ${String(value)}`);
}
