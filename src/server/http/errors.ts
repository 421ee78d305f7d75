import { ERROR_STATUS, type ErrorType, type ErrorBody, type UpstreamErrorDetail } from '../../shared/errors.js';

export { ERROR_STATUS, type ErrorType, type ErrorBody };

/**
 * What the store's 409 says besides its message, as it is sent (see docs/store.md#errors): why it was
 * refused (`reason`) and what a retry needs, so a client never parses the English.
 */
export interface ConflictDetail {
  readonly reason?: string;
  readonly merge_base?: number;
  readonly checkpoint_revision?: number;
  readonly unmerged_revisions?: number;
  readonly conflicts?: readonly { readonly key: string; readonly reason: string }[];
  readonly conflicts_truncated?: boolean;
}

/** An expected failure that maps to the shared error shape; `headers` are added to the reply. */
export class AppError extends Error {
  readonly type: ErrorType;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly upstream: UpstreamErrorDetail | undefined;
  readonly headRevision: number | undefined;
  /** On the store's 409 for a merge's moved source branch: the head that branch is at. */
  readonly fromHeadRevision: number | undefined;
  /** The request field at fault, in OpenAI's notation (`tools[0].function.name`); see ErrorBody. */
  readonly param: string | null | undefined;
  /** On the store's 409s: the reason and the rest of what a retry needs. */
  readonly conflict: ConflictDetail | undefined;

  constructor(
    type: ErrorType,
    message: string,
    options: {
      status?: number;
      headers?: Record<string, string>;
      upstream?: UpstreamErrorDetail;
      headRevision?: number;
      fromHeadRevision?: number;
      param?: string | null;
      conflict?: ConflictDetail;
    } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.type = type;
    this.status = options.status ?? ERROR_STATUS[type];
    this.headers = options.headers ?? {};
    this.upstream = options.upstream;
    this.headRevision = options.headRevision;
    this.fromHeadRevision = options.fromHeadRevision;
    this.param = options.param;
    this.conflict = options.conflict;
  }

  /** The JSON body for this error. */
  toBody(): ErrorBody & { readonly error: ConflictDetail } {
    const { type, message, status: code, upstream, headRevision, fromHeadRevision, param, conflict } = this;
    return {
      error: {
        type,
        message,
        code,
        ...(param === undefined ? {} : { param }),
        ...(upstream === undefined ? {} : { upstream }),
        ...(headRevision === undefined ? {} : { head_revision: headRevision }),
        ...(fromHeadRevision === undefined ? {} : { from_head_revision: fromHeadRevision }),
        ...conflict,
      },
    };
  }
}

/** 400 invalid_request_error; `param` is the request field at fault, when the message names one. */
export const badRequest = (message: string, param?: string | null): AppError =>
  new AppError('invalid_request_error', message, { param });
/** 401 authentication_error. */
export const unauthorized = (message: string): AppError => new AppError('authentication_error', message);
/** 403 permission_error. */
export const forbidden = (message: string): AppError => new AppError('permission_error', message);
/** 404 not_found_error. */
export const notFound = (message: string): AppError => new AppError('not_found_error', message);
/** 409 conflict_error; `options` add its reason and headers (`Retry-After`). */
export const conflict = (
  message: string,
  options: { conflict?: ConflictDetail; headers?: Record<string, string> } = {},
): AppError => new AppError('conflict_error', message, options);
/** 413 payload_too_large. */
export const payloadTooLarge = (message: string): AppError => new AppError('payload_too_large', message);

/** Builds an error body without an AppError (for places that answer directly). */
export function errorBody(type: ErrorType, message: string, code: number = ERROR_STATUS[type]): ErrorBody {
  return { error: { type, message, code } };
}

/** Kinds of expected failure the services' domain errors carry; the HTTP edge maps each to a status. */
export type DomainErrorKind = 'invalid' | 'not_found' | 'conflict' | 'too_large' | 'forbidden';

/** The HTTP error for a service's expected failure of `kind`; a conflict carries the heads and details it names. */
export function httpErrorFor(
  kind: DomainErrorKind,
  message: string,
  headRevision?: number,
  fromHeadRevision?: number,
  conflictDetail?: ConflictDetail,
): AppError {
  switch (kind) {
    case 'invalid':
      return badRequest(message);
    case 'not_found':
      return notFound(message);
    case 'conflict':
      return new AppError('conflict_error', message, { headRevision, fromHeadRevision, conflict: conflictDetail });
    case 'too_large':
      return payloadTooLarge(message);
    case 'forbidden':
      return forbidden(message);
    default:
      throw new Error(`unexpected domain error kind ${String(kind satisfies never)}`);
  }
}
