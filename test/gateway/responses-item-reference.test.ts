import { beforeEach, describe, expect, it } from 'vitest';
import { HARNESS_LLM, harnessWithKey } from './support/harness.js';

/**
 * `item_reference` input items on a model without a Responses API of its own: the gateway keeps the
 * items of kept responses, so it sends the referenced item itself, for the key that kept it (and its
 * team), as it replays previous_response_id's conversation. An id it does not keep for the key is
 * refused naming it, as OpenAI refuses an item it does not hold.
 */
describe('item_reference on a translated model', () => {
  const context = harnessWithKey({ llm: { ...HARNESS_LLM, per_model_max_tokens: { 'gpt-4o-mini': 100 } } });
  beforeEach(() => context.harness.anthropic.reset());
  const openai = () => context.harness.openaiClient(context.key);
  const sent = () => context.harness.anthropic.lastRequest()!.body;

  const keptAnswer = async () => {
    const first = await openai().responses.create({ model: 'claude-opus-4-7', input: 'Hello', store: true });
    const message = first.output.find((item) => item.type === 'message')!;
    return message.id;
  };

  it('sends the kept item a reference names', async () => {
    const id = await keptAnswer();
    const next = await openai().responses.create({
      model: 'claude-opus-4-7',
      input: [
        { role: 'user', content: 'Hello' },
        { type: 'item_reference', id },
        { role: 'user', content: 'And then?' },
      ],
      store: false,
    });
    expect(next.output_text).toBe('You said: And then?');
    expect(sent().messages).toEqual([
      { role: 'user', content: 'Hello' },
      { role: 'assistant', content: 'You said: Hello' },
      { role: 'user', content: 'And then?' },
    ]);
  });

  it("refuses a reference to another key's item as not found, naming the id", async () => {
    const id = await keptAnswer();
    const other = context.harness.openaiClient((await context.harness.issueKey({ scopes: ['*'] })).key);
    context.harness.anthropic.reset();
    const error = await other.responses
      .create({
        model: 'claude-opus-4-7',
        input: [
          { type: 'item_reference', id },
          { role: 'user', content: 'Hi' },
        ],
      })
      .catch((caught: unknown) => caught as { status: number; error: { param?: string; message: string } });
    expect(error).toMatchObject({ status: 400, error: { param: 'input[0].id' } });
    expect(error.error!.message).toContain(`Item with id '${id}' not found`);
    expect(context.harness.anthropic.requests).toHaveLength(0);
  });

  it('refuses a reference no kept response holds, naming the id', async () => {
    const error = await openai()
      .responses.create({
        model: 'claude-opus-4-7',
        input: [
          { role: 'user', content: 'Hi' },
          { type: 'item_reference', id: 'msg_unknown' },
        ],
      })
      .catch((caught: unknown) => caught as { status: number; error: { param?: string; message: string } });
    expect(error).toMatchObject({ status: 400, error: { param: 'input[1].id' } });
    expect(error.error!.message).toContain("Item with id 'msg_unknown' not found");
  });
});
