import Pool from 'undici/lib/dispatcher/pool.js';
import errors from 'undici/lib/core/errors.js';

/**
 * The two parts of undici the gateway runs: the keep-alive pool (driven through its `dispatch` API)
 * and the error classes of its timeouts. undici's index also loads fetch, WebSocket, EventSource, its
 * HTTP cache, interceptors and mocks, some 90 modules the gateway never runs: 5 to 8 MB of resident
 * memory under the benchmark's load. `undici-parts.test.ts` holds these to the index's own exports,
 * so an upgrade that moves them fails there.
 */
export { Pool, errors };
