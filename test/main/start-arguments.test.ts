import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve('.');
const dir = mkdtempSync(join(tmpdir(), 'gatehouse-start-args-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `npm start -- <args>` typed in `dir`, headless, without the build. */
function npmStart(args: string[]) {
  const result = spawnSync(process.execPath, [join(root, 'scripts', 'start.mjs'), '--no-build', ...args], {
    cwd: root,
    env: {
      ...process.env,
      GATEHOUSE_HEADLESS: '1',
      GATEHOUSE_DATA_DIR: join(dir, 'data'),
      INIT_CWD: dir,
      npm_package_json: join(root, 'package.json'),
    },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/**
 * `npm start` used to start the servers with none of the arguments it was given: a `--config` with a
 * broken file started on the defaults, with nothing to say the file was never read.
 */
describe('npm start passes its arguments to the server command', () => {
  it('reads the --config file, relative to where it was typed', () => {
    writeFileSync(join(dir, 'bad.yaml'), 'server:\n  gateway_port: eighty\n');
    const { status, output } = npmStart(['--config', 'bad.yaml']);
    expect(status).toBe(2);
    expect(output).toContain(join(dir, 'bad.yaml'));
    expect(output).toContain('gateway_port');
  });

  it('answers --check without a build or a window', () => {
    writeFileSync(join(dir, 'good.yaml'), 'llm:\n  allowed_models: [demo/echo]\n');
    const { status, output } = npmStart(['--check', '--config=good.yaml']);
    expect(output).toContain('is valid');
    expect(status).toBe(0);
  });

  it('refuses an argument the command does not take', () => {
    const { status, output } = npmStart(['--port', '9000']);
    expect(status).toBe(2);
    expect(output).toContain("unknown argument '--port'");
  });
});
