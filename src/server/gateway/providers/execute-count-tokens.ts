import { codecFor } from '../formats/codec.js';
import type { CountTokensBody } from '../formats/messages/count-tokens-schema.js';
import { estimatePromptTokens } from '../formats/token-estimate.js';
import { countAnthropicTokens } from './anthropic/count-tokens.js';
import { countDemoPromptTokens } from './demo/demo-tokenizer.js';
import { callContext, type AttemptArgs } from './call-context.js';
import type { ClientHeaders } from './types.js';

/** Where a count came from: the provider's own count endpoint, the demo tokenizer, or the gateway's estimate. */
export type TokenCountMethod = 'provider' | 'exact' | 'estimate';

/** The input tokens of a Messages request, and how they were counted. */
export interface TokenCount {
  readonly inputTokens: number;
  readonly method: TokenCountMethod;
}

/** Arguments of one count on one deployment. */
export interface CountTokensArgs extends AttemptArgs {
  /** The validated client request, model already canonical. */
  readonly body: CountTokensBody;
  /** The client's headers: Anthropic gets its `anthropic-beta`, as the Messages call does. */
  readonly headers?: ClientHeaders;
}

/**
 * Counts a Messages request's input tokens for one deployment: Anthropic counts its own, the demo
 * tokenizer counts exactly what the demo model would bill, and any other provider (OpenAI-compatible
 * APIs have no count endpoint) gets the gateway's estimate, the one it bills when an upstream reports
 * no usage. Rejects with
 * UpstreamError (Anthropic) or TranslationError (a request the provider could not be sent).
 */
export async function countTokens(args: CountTokensArgs): Promise<TokenCount> {
  const { deployment } = args;
  if (deployment.provider === 'anthropic') {
    const context = callContext(args, args.headers);
    return { inputTokens: await countAnthropicTokens(args.body, context), method: 'provider' };
  }
  // The same IR the Messages call builds, so a count matches what that call would bill.
  const request = codecFor('messages').requestToIr(args.body);
  if (deployment.provider === 'demo') return { inputTokens: await countDemoPromptTokens(request), method: 'exact' };
  return { inputTokens: estimatePromptTokens(request), method: 'estimate' };
}
