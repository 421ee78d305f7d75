import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config/load.js';

const SECRET = 'sk-proj-abcdefSECRET0123456789';
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function refusal(name: string, text: string | Buffer): { file: string; message: string } {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-parse-'));
  dirs.push(dir);
  const file = join(dir, name);
  writeFileSync(file, text);
  try {
    loadConfig({ file, env: {} });
  } catch (error) {
    return { file, message: (error as Error).message };
  }
  throw new Error('accepted');
}

describe('a configuration file that does not parse', () => {
  it('is refused when it is not UTF-8, naming the line, rather than read with replacement characters', () => {
    const latin1 = Buffer.concat([
      Buffer.from('llm:\n  allowed_models: [caf'),
      Buffer.from([0xe9]),
      Buffer.from(']\n'),
    ]);
    const { file, message } = refusal('gatehouse.yaml', latin1);
    expect(message).toBe(
      `cannot read configuration file ${file}: it is not UTF-8 (line 2, byte 0xe9); save it as UTF-8`,
    );
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('llm: {}\n', 'utf16le')]);
    expect(refusal('gatehouse.yaml', utf16).message).toMatch(/: it is UTF-16; save it as UTF-8$/);
  });

  it('JSON: names the line and column, never quoting the file (a key sits next to the mistake)', () => {
    const { file, message } = refusal(
      'gatehouse.json',
      `{\n  "providers": { "openai": { "api_key": "${SECRET}" } },\n  "server": { "ui": tru }\n}\n`,
    );
    expect(message).toBe(
      `cannot parse configuration file ${file}: not valid JSON at line 3, column 21: a value must be true, false, null, a number or a "quoted string"`,
    );
  });

  it('JSON: a trailing comma and a file cut short are placed too', () => {
    expect(refusal('a.json', '{"server": {"gateway_port": 9310,}}').message).toMatch(
      /: not valid JSON at line 1, column 34: '}' is not expected there$/,
    );
    expect(refusal('b.json', `{"providers": {"openai": {"api_key": "${SECRET}"`).message).toMatch(
      /: the file ends before the JSON is complete$/,
    );
  });

  it('JSON: a key named twice in one object is placed, as YAML refuses it, rather than the last one silently winning', () => {
    const { file, message } = refusal(
      'twice.json',
      `{\n  "server": { "log_level": "warn" },\n  "providers": { "openai": { "api_key": "${SECRET}" } },\n  "server": { "ui": false }\n}\n`,
    );
    expect(message).toBe(
      `cannot parse configuration file ${file}: a key is named twice in one object at line 4, column 3; only the last would count`,
    );
  });

  it('YAML: keeps the parser words and position, without the excerpt of the file', () => {
    const { file, message } = refusal(
      'gatehouse.yaml',
      `providers:\n  openai:\n    api_key: "${SECRET}\n    base_url: http://127.0.0.1:1/v1\n`,
    );
    expect(message).toMatch(new RegExp(`^cannot parse configuration file ${file}: .+ at line \\d+, column \\d+$`));
    expect(message).not.toContain(SECRET.slice(8));
  });
});
