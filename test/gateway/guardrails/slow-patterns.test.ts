import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentPolicySettingsViewSchema } from '../../../src/shared/guardrails-api.js';
import { hasNestedRepetition, slowShapeOf } from '../../../src/shared/regex-safety.js';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';

// A blocked pattern runs over every prompt (or answer) with V8's backtracking engine: one that repeats
// a varying part can take exponential time on a prompt that almost matches, holding the whole process.
// Such patterns are refused where they are set, naming the field; ordinary ones still work.

describe('blocked patterns that could take exponential time', () => {
  let h: GatewayHarness;
  beforeAll(async () => {
    h = await startGatewayHarness();
  });
  afterAll(async () => h?.close());

  it('are refused by the admin API, naming the pattern, and nothing is saved', async () => {
    const before = (await h.admin('GET', '/internal/content-policy')).body;
    const bad = await h.admin('PUT', '/internal/content-policy', { blocked_patterns: ['fine', '(a+)+$'] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/blocked_patterns\[1\].*exponential time/);
    const answer = await h.admin('PUT', '/internal/content-policy', {
      models: { 'gpt-4o-mini': { blocked_answer_patterns: ['(\\w+\\s?)*!'] } },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toMatch(/models\.gpt-4o-mini\.blocked_answer_patterns\[0\].*exponential time/);
    expect((await h.admin('GET', '/internal/content-policy')).body).toEqual(before);
  });

  it('leave ordinary patterns alone: a card number pattern with a short optional run is saved and blocks', async () => {
    const saved = await h.admin('PUT', '/internal/content-policy', {
      blocked_patterns: ['(?:\\d{4}[ -]?){3}\\d{4}', '(?<=my )secret', 'launch codes?'],
    });
    expect(saved.status).toBe(200);
    const key = await h.issueKey({ scopes: ['chat'] });
    const client = h.openaiClient(key.key);
    const refused = await client.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'card 4111 1111 1111 1111' }] })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    await h.admin('PUT', '/internal/content-policy', { reset: true });
  });

  it('stop a start from a configuration file, naming the setting', async () => {
    await expect(startGatewayHarness({ content_policy: { blocked_patterns: ['((ab)*)+c'] } })).rejects.toThrow(
      /content_policy\.blocked_patterns\[0\].*exponential time/,
    );
  });
});

describe('hasNestedRepetition', () => {
  it.each([
    ['(a+)+$', true],
    ['(\\w+\\s?)*x', true],
    ['(.*a){2}', true],
    ['(a?){30}', true],
    ['((a?){5}){5}', true],
    ['(cats?|dogs?)+', true],
    ['launch\\s+codes?', false],
    ['(foo|bar)+', false],
    ['(ab{2})+', false],
    ['(ab+)?', false],
    ['(?:\\d{4}[ -]?){3}\\d{4}', false],
    ['x*y*z*', false],
    // A lookbehind is read as a plain group, so it hides nothing.
    ['(?<![b])(a+)+$', true],
    ['(?<=my )secret', false],
    // A bounded run counts the ways its varying part can be split, not only the run.
    ['(a{0,9}){9}$', true],
    ['(?:a{1,10}){10}$', true],
  ])('%s: %s', (source, slow) => expect(hasNestedRepetition(source)).toBe(slow));
});

describe('slowShapeOf', () => {
  // Each slow one held V8 for seconds on a prompt of a few dozen (exponential) or tens of thousands
  // (quadratic) characters: (.|\s)*password on 33 spaces, (a|a)+$ on 26 a's, \s+$ on 30,000 spaces.
  it.each([
    ['(a+)+$', 'nested'],
    ['(.|\\s)*password', 'choice'],
    ['(a|a)+$', 'choice'],
    ['(\\d|\\w)+x$', 'choice'],
    ['(A|a)+$', 'choice'],
    ['\\s+$', 'run'],
    ['.*password', 'run'],
    ['\\d+ dollars', 'run'],
    ['a\\w*z', 'run'],
    ['a(\\w+z)', 'run'],
    ['\\s+\\s*x', 'run'],
    ['[A-Z0-9._%+-]+@[A-Z0-9.-]+\\.[A-Z]{2,}', 'run'],
    // Anchored, bounded, or with nothing after that can fail: linear.
    ['^\\s+$', undefined],
    ['^(\\s+)$', undefined],
    ['\\b\\d+\\b', undefined],
    ['\\s{1,100}$', undefined],
    ['password.*', undefined],
    ['x*y*z*', undefined],
    ['launch\\s+codes?', undefined],
    ['\\bpassword\\s*=\\s*\\S', undefined],
    ['(foo|bar)+', undefined],
    ['(?:\\d{4}[ -]?){3}\\d{4}', undefined],
    ['(?<=my )secret', undefined],
  ])('%s: %s', (source, shape) => expect(slowShapeOf(source)).toBe(shape));

  it('is refused by the admin API in words that say how to fix it', async () => {
    const h = await startGatewayHarness();
    try {
      const run = await h.admin('PUT', '/internal/content-policy', { blocked_patterns: ['\\s+$'] });
      expect(run.status).toBe(400);
      expect(run.body.error.message).toMatch(/blocked_patterns\[0\].*square of a long run.*bound the repetition/);
      const choice = await h.admin('PUT', '/internal/content-policy', { blocked_answer_patterns: ['(.|\\s)*x'] });
      expect(choice.status).toBe(400);
      expect(choice.body.error.message).toMatch(
        /blocked_answer_patterns\[0\].*alternatives can match the same character/,
      );
    } finally {
      await h.close();
    }
  });
});

describe('a slow pattern an older version stored', () => {
  it('is still shown by GET /internal/content-policy (and the Guardrails screen), so it can be replaced', () => {
    // The answer is checked against this schema before it is sent (and by the UI as it reads it): a
    // pattern refused since must not turn the answer into a 500.
    const stored = {
      blocked_patterns: ['(a+)+$'],
      blocked_answer_patterns: [],
      max_input_tokens: null,
      models: { 'gpt-4o-mini': { blocked_patterns: ['(\\w+\\s?)*!'] } },
      keys: {},
      source: 'database',
      updated_at: '2026-11-01T00:00:00.000Z',
    };
    expect(contentPolicySettingsViewSchema.parse(stored)).toEqual(stored);
  });
});
