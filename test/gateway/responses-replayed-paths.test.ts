import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { responsesTestBed } from '../support/responses-test-bed.js';

/**
 * With `previous_response_id` the gateway sends the kept conversation in front of the client's input;
 * a refusal of one of those items names where it came from, not an index into a list the client never
 * sent (its input may be a string).
 */
describe('refusals of a continued conversation name the item as the client knows it', () => {
  const bed = responsesTestBed('sk-replayed-paths-0123456789');

  it('a replayed item is named as part of the conversation, the client item by its own index', async () => {
    const first = await bed.client.responses.create({
      model: 'native-model',
      input: [
        { type: 'item_reference', id: 'msg_kept_at_the_provider' },
        { role: 'user', content: 'and then?' },
      ],
      store: true,
    });
    const continued = await bed.client.responses
      .create({ model: 'bridged-model', input: 'summarise', previous_response_id: first.id })
      .catch((caught: unknown) => caught);
    expect(continued).toBeInstanceOf(OpenAI.BadRequestError);
    expect((continued as Error).message).toContain(
      "previous_response_id's conversation, item 0.id: Item with id 'msg_kept_at_the_provider' not found",
    );

    const clean = await bed.client.responses.create({ model: 'bridged-model', input: 'hello', store: true });
    const own = await bed.client.responses
      .create({
        model: 'bridged-model',
        input: [
          { role: 'user', content: 'hi' },
          { type: 'item_reference', id: 'msg_x' },
        ],
        previous_response_id: clean.id,
      })
      .catch((caught: unknown) => caught);
    expect((own as Error).message).toContain("input[1].id: Item with id 'msg_x' not found");
  });
});
