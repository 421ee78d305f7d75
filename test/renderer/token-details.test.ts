import { describe, expect, it } from 'vitest';
import { tokenParts } from '../../src/renderer/src/lib/token-details.js';
import { formatInt } from '../../src/renderer/src/lib/format.js';

describe('tokenParts', () => {
  it('names the prompt-cache read and written parts and the reasoning part a provider reported', () => {
    expect(
      tokenParts(
        {
          prompt_tokens: 1000,
          completion_tokens: 300,
          cache_read_prompt_tokens: 400,
          cache_write_prompt_tokens: 100,
          reasoning_tokens: 200,
        },
        formatInt,
      ),
    ).toEqual(["1,000 (400 read from the provider's prompt cache, 100 written to it)", '300 (200 reasoning)']);
  });

  it('leaves out parts that are unknown or 0', () => {
    expect(tokenParts({ prompt_tokens: 12, completion_tokens: 3 }, formatInt)).toEqual(['12', '3']);
    expect(
      tokenParts(
        {
          prompt_tokens: 12,
          completion_tokens: 3,
          cache_read_prompt_tokens: 0,
          cache_write_prompt_tokens: null,
          reasoning_tokens: null,
        },
        formatInt,
      ),
    ).toEqual(['12', '3']);
  });
});
