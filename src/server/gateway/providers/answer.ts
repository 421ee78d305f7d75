import type { Usage } from '../formats/ir.js';
import type { StreamAnswer } from './stream-result.js';

export type { StreamAnswer } from './stream-result.js';

/** A complete answer in the client's format; its `model` is the public model name. */
export interface JsonAnswer {
  readonly kind: 'json';
  readonly body: object;
  /** `body` serialised, when it is the upstream's text with only `model` rewritten (no re-serialising). */
  readonly text?: string;
  readonly usage: Usage;
}

/** What a provider call answers, for every endpoint: a whole JSON body, or a stream of ready SSE frames. */
export type ProviderAnswer = JsonAnswer | StreamAnswer;
