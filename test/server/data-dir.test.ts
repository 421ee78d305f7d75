import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultDataDir } from '../../src/server/config/data-dir.js';
import { loadConfig } from '../../src/server/config/load.js';
import { spawnHeadless } from '../support/headless-process.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-datadir-')));
  dirs.push(dir);
  return dir;
}

/** Starts the headless command in `cwd` (not the checkout), stops it, and returns what it printed. */
async function startFrom(cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  const server = await spawnHeadless(env, 20_000, cwd);
  server.child.kill('SIGTERM');
  expect(await server.exited(), server.output()).toBe(0);
  return server.output();
}

describe('the data folder', () => {
  it('named relatively in a configuration file is read from the file folder, whatever folder the server starts in', async () => {
    const project = tempDir();
    const elsewhere = tempDir();
    writeFileSync(join(project, 'gatehouse.yaml'), 'server:\n  data_dir: ./data\n');
    const output = await startFrom(elsewhere, { GATEHOUSE_CONFIG: join(project, 'gatehouse.yaml') });
    expect(output).toContain(`data in ${join(project, 'data')}\n`);
    expect(existsSync(join(project, 'data', 'gatehouse.db'))).toBe(true);
    expect(existsSync(join(elsewhere, 'data'))).toBe(false);
  });

  it('starting with ~/ is in the home folder, as the example file shows it, never a folder named ~', async () => {
    const home = tempDir();
    const cwd = tempDir();
    writeFileSync(join(cwd, 'gatehouse.yaml'), 'server:\n  data_dir: ~/.local/share/gatehouse-test\n');
    const output = await startFrom(cwd, { HOME: home, GATEHOUSE_CONFIG: 'gatehouse.yaml' });
    expect(output).toContain(`data in ${join(home, '.local/share/gatehouse-test')}\n`);
    expect(existsSync(join(home, '.local/share/gatehouse-test', 'master.key'))).toBe(true);
    expect(existsSync(join(cwd, '~'))).toBe(false);
  });

  it('from a relative GATEHOUSE_DATA_DIR is read from the working directory and printed in full', async () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, 'state'));
    // npm's variables, as a process started under `npm test` inherits them, do not count: this process
    // runs in a folder of its own, not the package's.
    const output = await startFrom(cwd, {
      GATEHOUSE_DATA_DIR: 'state/gh',
      INIT_CWD: tempDir(),
      npm_package_json: join(process.cwd(), 'package.json'),
    });
    expect(output).toContain(`data in ${join(cwd, 'state/gh')}\n`);
    expect(existsSync(join(cwd, 'state/gh', 'gatehouse.db'))).toBe(true);
  });

  it('refuses ~user, naming the key or the variable it came from', () => {
    expect(() => loadConfig({ env: {}, overrides: { server: { data_dir: '~bob/gh' } } })).toThrowError(
      "invalid configuration in defaults and environment:\n  server.data_dir: '~bob/gh': only ~ (your own home folder) is understood; write the full path",
    );
    expect(() => loadConfig({ env: { GATEHOUSE_DATA_DIR: '~bob/gh' } })).toThrowError(
      /\n {2}GATEHOUSE_DATA_DIR \(server\.data_dir\): '~bob\/gh': only ~/,
    );
  });

  it('refuses the home folder itself and a path with a variable no shell expanded, saying what to write', () => {
    expect(() => loadConfig({ env: {}, overrides: { server: { data_dir: '~' } } })).toThrowError(
      "server.data_dir: '~' is your home folder itself: name a folder in it, such as ~/.gatehouse",
    );
    for (const written of ['$HOME/ghdata', '${XDG_DATA_HOME}/gatehouse'])
      expect(() => loadConfig({ env: {}, overrides: { server: { data_dir: written } } })).toThrowError(
        `server.data_dir: '${written}': variables are not expanded here; write the path (~/ is your home folder), or set GATEHOUSE_DATA_DIR`,
      );
    // A dollar sign that starts no variable is a folder name like any other.
    expect(loadConfig({ env: {}, overrides: { server: { data_dir: '/tmp/cost$/gh' } } }).config.server.data_dir).toBe(
      '/tmp/cost$/gh',
    );
  });

  it('ignores a relative XDG_DATA_HOME, as the XDG spec says, rather than make a folder wherever it starts', () => {
    const home = join(homedir(), '.local', 'share', 'gatehouse');
    expect(defaultDataDir({ XDG_DATA_HOME: 'rel-xdg' }, 'linux')).toBe(home);
    expect(defaultDataDir({ XDG_DATA_HOME: '' }, 'linux')).toBe(home);
    expect(defaultDataDir({ XDG_DATA_HOME: '/srv/xdg' }, 'linux')).toBe('/srv/xdg/gatehouse');
  });

  it('finds the same master key on a restart from another folder', async () => {
    const project = tempDir();
    writeFileSync(join(project, 'gatehouse.yaml'), 'server:\n  data_dir: data\n');
    const env = { GATEHOUSE_CONFIG: join(project, 'gatehouse.yaml'), GATEHOUSE_DATA_DIR: '' };
    await startFrom(ROOT, env);
    const again = await startFrom(tempDir(), env);
    expect(again).toContain(`master key: stored in ${join(project, 'data', 'master.key')}`);
  });
});

describe('a bad value from the environment', () => {
  it('is blamed on the variable, not on the configuration file', () => {
    const dir = tempDir();
    const file = join(dir, 'gatehouse.yaml');
    writeFileSync(file, 'server:\n  log_level: info\n');
    expect(() => loadConfig({ file, env: { GATEHOUSE_LOG_LEVEL: 'verbose' } })).toThrowError(
      /\n {2}GATEHOUSE_LOG_LEVEL \(server\.log_level\): 'verbose' is not one of fatal, error, warn, info/,
    );
    expect(() => loadConfig({ env: { OPENAI_BASE_URL: 'ftp://example.test' } })).toThrowError(
      /\n {2}OPENAI_BASE_URL \(providers\.openai\.base_url\): must be an http:\/\/ or https:\/\/ URL/,
    );
    expect(() => loadConfig({ file, env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'notaurl' } })).toThrowError(
      /\n {2}OTEL_EXPORTER_OTLP_ENDPOINT \(telemetry\.otlp_endpoint\): /,
    );
  });
});
