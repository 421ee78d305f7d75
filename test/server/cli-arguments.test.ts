import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
    expect(stdout).toMatch(/^usage: npm run serve \[-- \[--config <file>\] \[--check\]\]\n *npm start/);
    expect(stdout).not.toContain('listening');
  });

  it('refuses an argument it does not take, exiting 2 and naming it', async () => {
    const failure = await failedStart(env, 10_000, ['--port=1']);
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toMatch(
      /^gatehouse: unknown argument '--port=1': the command takes --config <file>, --check and --help/,
    );
    expect((await failedStart(env, 10_000, ['--config']))?.stderr).toContain('--config needs a file');
  });

  it('--check says a configuration is valid and exits 0, opening no port and leaving the data folder alone', async () => {
    const file = join(dir, 'good.yaml');
    writeFileSync(
      file,
      'llm:\n  allowed_models: [demo/echo]\npricing:\n  demo/ehco: { input_per_mtok: 1, output_per_mtok: 1 }\n',
    );
    const checked = join(dir, 'checked-data');
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [...SERVER_NODE_FLAGS, '--import', 'tsx', 'src/server/cli.ts', '--check', '--config', file],
      { env: { ...process.env, ...env, GATEHOUSE_DATA_DIR: checked }, timeout: 20_000 },
    );
    expect(stdout).toBe(`gatehouse: configuration from ${file} is valid; data would be in ${checked}\n`);
    // The warnings a start would log about the file's models and prices, too.
    expect(stderr).toContain("gatehouse: pricing.demo/ehco: 'demo/ehco' is neither in llm.allowed_models");
    expect(existsSync(checked)).toBe(false);
  });

  it('--check names every problem a start would refuse, from the file and the environment, and exits 2', async () => {
    const file = join(dir, 'bad.yaml');
    writeFileSync(
      file,
      [
        'llm:',
        '  allowed_models: [local]',
        'deployments:',
        '  - { model: local, provider: openai_compatible }',
        'store:',
        '  auth:',
        '    tokens: [{ name: ci, token_env: CI_STORE_TOKEN, verbs: [read], namespaces: ["*"] }]',
        '',
      ].join('\n'),
    );
    const failure = await failedStart({ ...env, PROXY_MASTER_KEY: 'sk-1234' }, 20_000, ['--check', '--config', file]);
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toContain(`invalid configuration in ${file}:`);
    expect(failure?.stderr).toContain(
      "deployments[0].base_url is required: provider 'openai_compatible' has no default address",
    );
    expect(failure?.stderr).toContain('PROXY_MASTER_KEY:');
    expect(failure?.stderr).toContain('store.auth.tokens[0].token_env: CI_STORE_TOKEN is not set in the environment');
    expect(failure?.stderr).not.toContain('listening');
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
