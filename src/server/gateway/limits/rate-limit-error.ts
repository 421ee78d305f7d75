import type { LimitType } from '../../../shared/principals-api.js';
import { AppError, type ErrorBody } from '../../http/errors.js';

/** 429 `rate_limit_exceeded`, whose body also names the limit that was hit (`limit_type`). */
export class RateLimitError extends AppError {
  constructor(
    readonly limitType: LimitType,
    message: string,
    headers: Record<string, string>,
  ) {
    super('rate_limit_exceeded', message, { headers });
  }

  override toBody(): ErrorBody {
    const body = super.toBody();
    return { error: { ...body.error, limit_type: this.limitType } } as ErrorBody;
  }
}
