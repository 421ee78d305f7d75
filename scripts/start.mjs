// `npm start`: builds the app, then opens the desktop window where Electron can run, otherwise
// starts the headless server (UI at the printed address). Electron's binary is optional: it
// cannot be downloaded on every machine, and the headless server needs none of it.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Node flags of the server process (also in package.json's `serve` and the gateway benchmark): one V8
 * worker thread instead of four and an 8 MB young generation instead of 16 keep the gateway's RSS some
 * 30 MB lower under load at no measurable CPU cost (docs/gateway.md, Performance).
 */
const serverNodeFlags = JSON.parse(readFileSync(join(root, 'scripts', 'server-node-flags.json'), 'utf8'));
const v8Flags = serverNodeFlags.filter((flag) => !flag.startsWith('--v8-pool-size'));

/** The Electron binary's path when it was installed, without requiring `electron` (that downloads). */
function electronBinary() {
  const dir = join(root, 'node_modules', 'electron');
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const binary = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : undefined;
}

function hasDisplay() {
  if (process.platform === 'win32' || process.platform === 'darwin') return true;
  return Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
}

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  return result.status === 0;
}

/**
 * Runs the child in the foreground; our signals go to it so it can shut down cleanly, and so does our
 * parent's leaving: npm passes SIGTERM to the shell between it and this script, which dies of it
 * without passing it on, and the app would live on, orphaned, holding its ports and data folder.
 */
function foreground(command, args, env = process.env) {
  const child = spawn(command, args, { cwd: root, stdio: 'inherit', env });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    child.kill('SIGTERM');
  }, 500);
  watch.unref();
}

if (!run('npx', ['electron-vite', 'build'])) {
  console.error('gatehouse: the build failed; see the messages above');
  process.exit(1);
}

const binary = electronBinary();
const reason = process.env.GATEHOUSE_HEADLESS
  ? 'GATEHOUSE_HEADLESS is set'
  : !binary
    ? "Electron's binary is not installed"
    : !hasDisplay()
      ? 'there is no display'
      : undefined;

if (reason === undefined && run('node', [join(root, 'scripts', 'build-electron-native.mjs')])) {
  foreground(binary, [`--js-flags=${v8Flags.join(' ')}`, '.'], {
    ...process.env,
    GATEHOUSE_SQLITE_BINDING: join(root, 'out', 'native', 'better_sqlite3.node'),
  });
} else {
  console.log(
    `gatehouse: starting headless (${reason ?? 'the native module could not be built for Electron'}); open the UI address below in a browser`,
  );
  foreground(process.execPath, [...serverNodeFlags, '--import', 'tsx', join(root, 'src', 'server', 'cli.ts')]);
}
