import { AppError } from '../../../http/errors.js';
import { TranslationError } from '../translation-error.js';
import type { MessagesBody } from './messages-schema.js';

/**
 * A request on a server-held thread (`thread: {type: "create" | "continue"}`) for a model Anthropic
 * does not serve: no one keeps the thread, so a `continue`, which sends only the new messages, would
 * reach the model without its history. Answered 400 invalid_request_error with Anthropic's own
 * `error.details` for a request a server cannot thread (`error_code: "thread_unsupported_request"`):
 * the Anthropic SDK's threads (its tool runner among them) then send that turn and every later one
 * with the full history and no `thread`.
 */
export class ThreadUnsupportedError extends AppError {
  readonly details = { error_code: 'thread_unsupported_request', unsupported: ['thread'] } as const;

  constructor() {
    super(
      'invalid_request_error',
      'thread: this model is not served by Anthropic, so no server keeps the thread; send the full history without `thread`',
      { param: 'thread' },
    );
    this.name = 'ThreadUnsupportedError';
  }

  override toBody(): ReturnType<AppError['toBody']> {
    const body = super.toBody();
    const error = { ...body.error, details: this.details };
    return { error };
  }
}

/**
 * Refuses what needs state Anthropic keeps on its servers, which a translation cannot keep: a
 * server-held thread, and a compaction request (whose answer is a `compaction` block only Anthropic
 * writes). `fallbacks` is dropped instead, as Anthropic drops it for a model that has none: the
 * request runs on the model asked for.
 */
export function refuseServerState(body: MessagesBody): void {
  if (body.thread != null) throw new ThreadUnsupportedError();
  if (body.compaction != null)
    throw TranslationError.at(
      'compaction',
      'only Anthropic models can summarize a conversation into a compaction block; send the conversation without `compaction`',
    );
}
