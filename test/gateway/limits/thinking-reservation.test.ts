import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HARNESS_LLM, startGatewayHarness, type GatewayHarness } from '../support/harness.js';

// A chat or Responses request's thinking, translated for a Claude model, is a budget sent on top of
// the answer's limit: output the model may generate and bill. The limits' reservation takes it too, so
// a token or dollar budget is not overshot by thinking the reservation never counted. Here
// claude-opus-4-7 has no per_model_max_tokens; claude-capped has one of 2400.

let h: GatewayHarness;
let client: OpenAI;

beforeAll(async () => {
  h = await startGatewayHarness({
    llm: {
      ...HARNESS_LLM,
      allowed_models: [...HARNESS_LLM.allowed_models, 'claude-capped'],
      per_model_max_tokens: { 'gpt-4o-mini': 100, 'claude-capped': 2400 },
    },
  });
  // 3000 tokens a minute: a short prompt and a 100-token answer fit, with a 4096-token budget they do not.
  client = h.openaiClient((await h.issueKey({ scopes: ['*'], tpm_limit: 3000 })).key);
});
afterAll(() => h.close());
beforeEach(() => h.anthropic.reset());

const refusal = (error: unknown) => {
  expect(error).toBeInstanceOf(OpenAI.RateLimitError);
  expect((error as InstanceType<typeof OpenAI.RateLimitError>).error).toMatchObject({ limit_type: 'tokens' });
};

describe('a reservation with a translated thinking budget', () => {
  it('counts the Responses reasoning budget as output', async () => {
    const asked = await client.responses
      .create({ model: 'claude-opus-4-7', input: 'Hi', max_output_tokens: 100, reasoning: { effort: 'high' } })
      .catch((error: unknown) => error);
    refusal(asked);
    expect((asked as Error).message).toContain('4196 reserved for output');
    expect(h.anthropic.requests).toHaveLength(0);
    const plain = await client.responses.create({ model: 'claude-opus-4-7', input: 'Hi', max_output_tokens: 100 });
    expect(plain.output_text).toBe('You said: Hi');
  });

  it("counts chat's reasoning_effort and thinking budgets as output", async () => {
    const effort = await client.chat.completions
      .create({
        model: 'claude-opus-4-7',
        messages: [{ role: 'user', content: 'Hi' }],
        max_tokens: 100,
        reasoning_effort: 'high',
      })
      .catch((error: unknown) => error);
    refusal(effort);
    const budget = await client.chat.completions
      .create({
        model: 'claude-opus-4-7',
        messages: [{ role: 'user', content: 'Hi' }],
        max_tokens: 100,
        // @ts-expect-error LiteLLM's extension, not an OpenAI parameter
        thinking: { type: 'enabled', budget_tokens: 3000 },
      })
      .catch((error: unknown) => error);
    refusal(budget);
    expect(h.anthropic.requests).toHaveLength(0);
  });

  it("counts the budget as the model's cap bounds it", async () => {
    // Under a cap of 2400 the budget is half of it, 1200, and the whole 1300 (100 + 1200).
    const tight = h.openaiClient((await h.issueKey({ scopes: ['*'], tpm_limit: 1000 })).key);
    const capped = await tight.responses
      .create({ model: 'claude-capped', input: 'Hi', max_output_tokens: 100, reasoning: { effort: 'high' } })
      .catch((error: unknown) => error);
    refusal(capped);
    expect((capped as Error).message).toContain('1300 reserved for output');
    // With room for it, the request goes with that budget.
    await client.responses.create({
      model: 'claude-capped',
      input: 'Hi',
      max_output_tokens: 100,
      reasoning: { effort: 'high' },
    });
    expect(h.anthropic.lastRequest()!.body).toMatchObject({
      thinking: { type: 'enabled', budget_tokens: 1200 },
      max_tokens: 1300,
    });
  });
});
