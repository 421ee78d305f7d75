import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/** A harness gateway caching for 10 minutes and a key for it, as {@link withCachingGateway} hands them over. */
export interface CachingGateway {
  readonly h: GatewayHarness;
  readonly key: string;
}

/**
 * A gateway caching every temperature-0 answer and embedding, started before the block's tests; each
 * test starts from the configuration's settings, an empty cache and a mock upstream with no requests.
 * Read the fields inside the tests.
 */
export function withCachingGateway(): CachingGateway {
  const context = {} as { h: GatewayHarness; key: string };
  beforeAll(async () => {
    context.h = await startGatewayHarness({ cache: { enabled: true, ttl_seconds: 600 } });
    context.key = (await context.h.issueKey({ scopes: ['chat', 'embeddings'] })).key;
  });
  beforeEach(async () => {
    context.h.openai.reset();
    await context.h.admin('PUT', '/internal/cache', { reset: true });
    await context.h.admin('POST', '/internal/cache/purge', {});
  });
  afterAll(async () => context.h?.close());
  return context;
}
