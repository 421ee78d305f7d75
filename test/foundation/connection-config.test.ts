import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config/load.js';

describe('connection keys of the server section', () => {
  it('have documented defaults', () => {
    const { config } = loadConfig({ env: {} });
    expect(config.server).toMatchObject({
      request_timeout_ms: 60_000,
      headers_timeout_ms: 15_000,
      keep_alive_timeout_ms: 30_000,
      idle_timeout_ms: 10_000,
      max_connections: 1024,
      allowed_hosts: [],
    });
  });

  it('refuse a headers timeout above the request timeout, and host names with a scheme or port', () => {
    expect(() =>
      loadConfig({ env: {}, overrides: { server: { headers_timeout_ms: 5000, request_timeout_ms: 1000 } } }),
    ).toThrow(/server\.headers_timeout_ms/);
    expect(() => loadConfig({ env: {}, overrides: { server: { allowed_hosts: ['http://box.lan'] } } })).toThrow(
      /server\.allowed_hosts\[0\]/,
    );
    expect(() => loadConfig({ env: {}, overrides: { server: { allowed_hosts: ['box.lan:8747'] } } })).toThrow(
      /server\.allowed_hosts\[0\]/,
    );
  });
});
