import { z } from 'zod';

// A calendar date: `2023-13-45` is refused. The validator adds the value received.
const dated = z.iso.date({ error: 'must be a date (YYYY-MM-DD)' });

/**
 * The version headers of a Messages request (and its count): Anthropic clients send
 * `anthropic-version`, the interface document calls it `vendor-version`; any real date is accepted in
 * either. Both with different dates is refused: which one the client meant cannot be told, and a
 * silent choice would hide the client's bug.
 */
export const messagesVersionHeadersSchema = z
  .looseObject({
    'anthropic-version': dated.optional(),
    'vendor-version': dated.optional(),
  })
  .superRefine((headers, ctx) => {
    const anthropic = headers['anthropic-version'];
    const vendor = headers['vendor-version'];
    if (anthropic === undefined || vendor === undefined || anthropic === vendor) return;
    ctx.addIssue({
      code: 'custom',
      path: ['vendor-version'],
      // The validator puts `header ` before the field this message starts with.
      message: `vendor-version ('${vendor}') differs from anthropic-version ('${anthropic}'), which names the same API version: send one of them, or the same date in both`,
    });
  });
