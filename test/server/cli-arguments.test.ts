import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { failedStart, SERVER_NODE_FLAGS } from '../support/headless-process.js';

/**
 * The headless command takes `--config` (as LiteLLM's proxy does) and `--help`; anything else is
 * refused, where it used to be ignored while the servers started on defaults.
 */
describe('the headless command line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-cli-args-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const env = { GATEHOUSE_DATA_DIR: join(dir, 'data'), GATEHOUSE_CONFIG: '' };

  it('--help prints the usage and exits 0, starting nothing', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [...SERVER_NODE_FLAGS, '--import', 'tsx', 'src/server/cli.ts', '--help'],
      { env: { ...process.env, ...env }, timeout: 10_000 },
    );
    expect(stdout).toMatch(/^usage: npm run serve \[-- --config <file>\]/);
    expect(stdout).not.toContain('listening');
  });

  it('refuses an argument it does not take, exiting 2 and naming it', async () => {
    const failure = await failedStart(env, 10_000, ['--port=1']);
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toMatch(
      /^gatehouse: unknown argument '--port=1': the command takes --config <file> and --help/,
    );
    expect((await failedStart(env, 10_000, ['--config']))?.stderr).toContain('--config needs a file');
  });

  it('--config reads the file, over GATEHOUSE_CONFIG', async () => {
    const file = join(dir, 'litellm-style.yaml');
    writeFileSync(file, 'server:\n  gatway_port: 9310\n');
    const other = join(dir, 'other.yaml');
    writeFileSync(other, 'server: {}\n');
    for (const args of [['--config', file], [`--config=${file}`]]) {
      const failure = await failedStart({ ...env, GATEHOUSE_CONFIG: other }, 10_000, args);
      expect(failure?.code).toBe(2);
      expect(failure?.stderr).toContain(`invalid configuration in ${file}:`);
    }
  });

  it('takes a relative --config or GATEHOUSE_CONFIG from the folder npm was run in (INIT_CWD), naming the whole path', async () => {
    writeFileSync(join(dir, 'mine.yaml'), 'server:\n  gatway_port: 9310\n');
    // As npm starts it: in the package's folder, naming the folder it was typed in.
    const caller = { ...env, INIT_CWD: dir, npm_package_json: join(process.cwd(), 'package.json') };
    const byFlag = await failedStart(caller, 10_000, ['--config', 'mine.yaml']);
    expect(byFlag?.stderr).toContain(`invalid configuration in ${join(dir, 'mine.yaml')}:`);
    const byVariable = await failedStart({ ...caller, GATEHOUSE_CONFIG: 'mine.yaml' });
    expect(byVariable?.stderr).toContain(`invalid configuration in ${join(dir, 'mine.yaml')}:`);
    const missing = await failedStart(caller, 10_000, ['--config', 'nope.yaml']);
    expect(missing?.stderr).toContain(`cannot read configuration file ${join(dir, 'nope.yaml')}:`);
  });
});
