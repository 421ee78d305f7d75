import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { alsoWriteLogsTo, serverLogger } from '../../src/server/http/logger.js';
import { LOG_FILE_NAME, LOGS_FOLDER, openLogFile } from '../../src/main/log-file.js';

// The desktop app's log file: the servers' own pino lines, redacted as on stdout, kept bounded.

const root = mkdtempSync(join(tmpdir(), 'gatehouse-log-file-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => alsoWriteLogsTo(undefined));

describe('the desktop log file', () => {
  it("gets the servers' lines as JSON, with secrets redacted, in an owner-only file", () => {
    const dataDir = join(root, 'redacted');
    const file = openLogFile(dataDir);
    alsoWriteLogsTo(file);
    // A logger made as the servers make theirs: stdout by default, and now the file as well.
    const fromDefault = serverLogger('info', 'gateway')!;
    fromDefault.warn(
      {
        headers: { authorization: 'Bearer sk-very-secret', 'x-api-key': 'sk-other-secret' },
        provider: { apiKey: 'sk-third' },
      },
      'upstream refused',
    );

    expect(file.path).toBe(join(dataDir, LOGS_FOLDER, LOG_FILE_NAME));
    const text = readFileSync(file.path, 'utf8');
    expect(text).not.toMatch(/sk-very-secret|sk-other-secret|sk-third/);
    const lines = text.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 40,
      name: 'gateway',
      msg: 'upstream refused',
      headers: { authorization: '[redacted]', 'x-api-key': '[redacted]' },
      provider: { apiKey: '[redacted]' },
    });
    expect(statSync(file.path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDir, LOGS_FOLDER)).mode & 0o777).toBe(0o700);
  });

  it('is rotated once it would pass its size, keeping two older files', () => {
    const dataDir = join(root, 'rotated');
    const file = openLogFile(dataDir, { maxBytes: 100 });
    const line = (n: number): string => `${String(n).padStart(3, '0')} ${'x'.repeat(45)}\n`; // 50 bytes
    for (let n = 1; n <= 7; n++) file.write(line(n));
    expect(readFileSync(file.path, 'utf8')).toBe(line(7));
    expect(readFileSync(`${file.path}.1`, 'utf8')).toBe(line(5) + line(6));
    expect(readFileSync(`${file.path}.2`, 'utf8')).toBe(line(3) + line(4));
    expect(existsSync(`${file.path}.3`)).toBe(false);
  });

  it('is appended to by the next launch', () => {
    const dataDir = join(root, 'appended');
    openLogFile(dataDir).write('first launch\n');
    openLogFile(dataDir).write('second launch\n');
    expect(readFileSync(join(dataDir, LOGS_FOLDER, LOG_FILE_NAME), 'utf8')).toBe('first launch\nsecond launch\n');
  });
});
