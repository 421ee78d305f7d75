import { tokensWithin } from '../../formats/tokenizer.js';

/** Whether the input fits; `tokens` when it had to be counted to know. */
export interface TokenCheck {
  readonly fits: boolean;
  readonly tokens?: number;
}

/**
 * Whether texts fit in `limit` tokens of the o200k_base encoding (GPT-4o and later; a close measure for
 * other families). Text whose UTF-8 size (`bytes`) is within the limit fits without being tokenised
 * (no token is shorter than a byte); otherwise each text is tokenised only until the limit is passed.
 */
export function checkTokens(texts: readonly string[], limit: number, bytes: number): TokenCheck {
  if (bytes <= limit) return FITS;
  let remaining = limit;
  for (const text of texts) {
    const tokens = tokensWithin(text, remaining);
    if (tokens === false) return { fits: false };
    remaining -= tokens;
  }
  return { fits: true, tokens: limit - remaining };
}

const FITS: TokenCheck = { fits: true };
