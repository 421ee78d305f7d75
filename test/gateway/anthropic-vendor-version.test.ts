import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { withSdkClients, type HarnessClients } from './support/harness.js';

/** The SDK's own `anthropic-version` left out, so the request carries only the contract's `vendor-version`. */
const VENDOR_ONLY = { 'anthropic-version': null, 'vendor-version': '2024-01-01' };
/** Both headers, naming different versions. */
const CONFLICTING = { 'anthropic-version': '2023-06-01', 'vendor-version': '2024-01-01' };
const BOTH_NAMED = "header vendor-version ('2024-01-01') differs from anthropic-version ('2023-06-01')";

/**
 * `vendor-version`, the interface document's name for Anthropic's `anthropic-version`, is forwarded on
 * the native path exactly as `anthropic-version` is; the two with different dates are refused.
 */
describe('vendor-version on the native Anthropic path', () => {
  let c: HarnessClients;
  withSdkClients({}, ['chat'], (clients) => (c = clients));
  const messages = [{ role: 'user' as const, content: 'hi' }];

  it('forwards vendor-version as anthropic-version on Messages', async () => {
    await c.anthropic.messages.create({ model: 'claude-opus-4-7', max_tokens: 10, messages }, { headers: VENDOR_ONLY });
    const sent = c.h.anthropic.lastRequest()!.headers;
    expect(sent['anthropic-version']).toBe('2024-01-01');
    expect(sent).not.toHaveProperty('vendor-version');
  });

  it('forwards vendor-version as anthropic-version on count_tokens', async () => {
    await c.anthropic.messages.countTokens({ model: 'claude-opus-4-7', messages }, { headers: VENDOR_ONLY });
    const sent = c.h.anthropic.lastRequest()!;
    expect(sent.path).toBe('/v1/messages/count_tokens');
    expect(sent.headers['anthropic-version']).toBe('2024-01-01');
  });

  it('takes both headers with the same date', async () => {
    await c.anthropic.messages.create(
      { model: 'claude-opus-4-7', max_tokens: 10, messages },
      { headers: { 'anthropic-version': '2024-01-01', 'vendor-version': '2024-01-01' } },
    );
    expect(c.h.anthropic.lastRequest()!.headers['anthropic-version']).toBe('2024-01-01');
  });

  it('refuses both headers with different dates on Messages, naming both', async () => {
    const error = await c.anthropic.messages
      .create({ model: 'claude-opus-4-7', max_tokens: 10, messages }, { headers: CONFLICTING })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as InstanceType<typeof Anthropic.BadRequestError>).message).toContain(BOTH_NAMED);
    expect(c.h.anthropic.requests).toHaveLength(0);
  });

  it('refuses both headers with different dates on count_tokens, naming both', async () => {
    const error = await c.anthropic.messages
      .countTokens({ model: 'claude-opus-4-7', messages }, { headers: CONFLICTING })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as InstanceType<typeof Anthropic.BadRequestError>).message).toContain(BOTH_NAMED);
    expect(c.h.anthropic.requests).toHaveLength(0);
  });
});
