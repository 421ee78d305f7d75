import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config/load.js';
import { formatLogLine, logFormat, serverLogger, textLogDestination } from '../../src/server/http/logger.js';
import { spawnHeadless } from '../support/headless-process.js';

/**
 * Log lines are pino's JSON for collectors, and one readable line each for a person at a terminal:
 * the start's warnings (a data folder taken over, an exposed address) are read there.
 */
describe('the log format', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-log-format-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is text at a terminal and JSON when piped, unless GATEHOUSE_LOG_FORMAT chooses', () => {
    expect(logFormat(true, {})).toBe('text');
    expect(logFormat(false, {})).toBe('json');
    expect(logFormat(undefined, {})).toBe('json');
    expect(logFormat(true, { GATEHOUSE_LOG_FORMAT: 'json' })).toBe('json');
    expect(logFormat(false, { GATEHOUSE_LOG_FORMAT: 'text' })).toBe('text');
  });

  it('refuses a GATEHOUSE_LOG_FORMAT that is no format, naming the variable', () => {
    expect(() => loadConfig({ env: { GATEHOUSE_LOG_FORMAT: 'pretty' } })).toThrowError(
      'invalid environment:\n  GATEHOUSE_LOG_FORMAT must be json or text (or unset: text at a terminal, json otherwise), got "pretty"',
    );
  });

  it("writes pino's lines as level, time, name, message and key=value, with secrets still redacted", () => {
    const written: string[] = [];
    const log = serverLogger(
      'info',
      'gateway',
      textLogDestination((text) => written.push(text)),
    )!;
    log.warn(
      {
        data_dir: '/srv/gh data',
        hold_file: '/srv/gh/gatehouse.lock',
        provider: { apiKey: 'sk-secret-0123456789' },
        count: 2,
      },
      'took over the data folder',
    );
    log.error({ headers: { authorization: 'Bearer gk-secret-0123456789' }, err: new Error('boom') }, 'failed');
    log.debug('not at info');
    expect(written).toHaveLength(2);
    expect(written[0]).toMatch(
      /^WARN {2}\d\d:\d\d:\d\d gateway: took over the data folder data_dir="\/srv\/gh data" hold_file=\/srv\/gh\/gatehouse\.lock provider={"apiKey":"\[redacted\]"} count=2\n$/,
    );
    expect(written[1]).toMatch(
      /^ERROR \d\d:\d\d:\d\d gateway: failed headers=.*\[redacted\].*\n {4}Error: boom\n\s+at /,
    );
    expect(written.join('')).not.toContain('secret');
    expect(formatLogLine('not json')).toBe('not json\n');
  });

  it('stays JSON, one object a line, when the output is piped', async () => {
    const server = await spawnHeadless({
      GATEHOUSE_DATA_DIR: join(dir, 'data'),
      GATEHOUSE_CONFIG: '',
      GATEHOUSE_LOG_LEVEL: 'info',
      GATEHOUSE_LOG_FORMAT: '',
      PROXY_MASTER_KEY: 'gk-master-log-format-0123456789',
    });
    server.child.kill('SIGTERM');
    await server.exited();
    const listening = server
      .output()
      .split('\n')
      .filter((line) => line.includes('Server listening at'));
    expect(listening.length).toBeGreaterThan(0);
    for (const line of listening) expect(JSON.parse(line)).toMatchObject({ level: 30, name: expect.any(String) });
  });
});
