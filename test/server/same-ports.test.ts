import { describe, expect, it } from 'vitest';
import { loadConfig, type ConfigError } from '../../src/server/config/load.js';

// Both services on one port: the store's listener failed as 'the gateway port is in use by another
// process', sending the user to look for a program that does not exist.

function issuesOf(options: Parameters<typeof loadConfig>[0]): readonly string[] {
  try {
    loadConfig(options);
  } catch (error) {
    return (error as ConfigError).issues;
  }
  return [];
}

describe('gateway_port and store_port', () => {
  it('the same port in the file is refused, naming both', () => {
    expect(issuesOf({ env: {}, overrides: { server: { gateway_port: 9000, store_port: 9000 } } })).toEqual([
      'server.store_port: store_port must differ from gateway_port (both 9000): each service listens on its own port',
    ]);
  });

  it("the gateway moved onto the store's default port is refused", () => {
    expect(issuesOf({ env: {}, overrides: { server: { gateway_port: 8748 } } })).toEqual([
      'server.store_port: store_port must differ from gateway_port (both 8748): each service listens on its own port',
    ]);
  });

  it('the same port from the environment is blamed on the variable', () => {
    expect(issuesOf({ env: { GATEWAY_PORT: '9100', STORE_PORT: '9100' } })).toEqual([
      'STORE_PORT (server.store_port): store_port must differ from gateway_port (both 9100): each service listens on its own port',
    ]);
  });

  it('port 0 for both picks two free ports', () => {
    expect(issuesOf({ env: { GATEWAY_PORT: '0', STORE_PORT: '0' } })).toEqual([]);
  });
});
