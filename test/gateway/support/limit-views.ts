import OpenAI from 'openai';
import { expect } from 'vitest';
import type { GatewayHarness } from './harness.js';

/** The error the SDK raised, which must be its RateLimitError. */
export async function refused(request: Promise<unknown>): Promise<InstanceType<typeof OpenAI.RateLimitError>> {
  const error = await request.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(OpenAI.RateLimitError);
  return error as InstanceType<typeof OpenAI.RateLimitError>;
}

/** A key's limit of a type, as the admin view shows it (which must have one). */
export async function keyLimit(h: GatewayHarness, id: string, type: string): Promise<Record<string, any>> {
  const view = await h.admin('GET', `/internal/api-keys/${id}`);
  expect(view.status).toBe(200);
  const status = (view.body.limits as Array<Record<string, any>>).find((limit) => limit.limit_type === type);
  expect(status).toBeDefined();
  return status!;
}
