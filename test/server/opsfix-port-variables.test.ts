import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { failedStart } from '../support/headless-process.js';

/**
 * `--check` and a start exit 2 with every problem of the configuration: both port variables' among
 * them, where only the first bad port used to be named.
 */
describe('port variables that are no port numbers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-opsfix-ports-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('are named together, with the other problems, by --check', async () => {
    const failure = await failedStart(
      {
        GATEHOUSE_DATA_DIR: join(dir, 'data'),
        GATEHOUSE_CONFIG: '',
        GATEWAY_PORT: 'abc',
        STORE_PORT: 'xyz',
        GATEHOUSE_LOG_LEVEL: 'loud',
      },
      20_000,
      ['--check'],
    );
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toContain('invalid environment:\n');
    expect(failure?.stderr).toContain('  GATEWAY_PORT must be a port number from 0 to 65535, got "abc"\n');
    expect(failure?.stderr).toContain('  STORE_PORT must be a port number from 0 to 65535, got "xyz"\n');
    expect(failure?.stderr).toContain('GATEHOUSE_LOG_LEVEL (server.log_level)');
  });

  it('are named even when the rest of the configuration is valid', async () => {
    const failure = await failedStart(
      { GATEHOUSE_DATA_DIR: join(dir, 'data'), GATEHOUSE_CONFIG: '', GATEWAY_PORT: '70000', STORE_PORT: '-1' },
      20_000,
      ['--check'],
    );
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toContain('GATEWAY_PORT must be a port number from 0 to 65535, got "70000"');
    expect(failure?.stderr).toContain('STORE_PORT must be a port number from 0 to 65535, got "-1"');
  });
});
