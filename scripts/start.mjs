// `npm start`: builds the app, then opens the desktop window where Electron can run, otherwise
// starts the headless server (UI at the printed address). Electron's binary is optional: it
// cannot be downloaded on every machine, and the headless server needs none of it.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { foreground, launchDesktop } from './launch.mjs';

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

function headless(reason) {
  console.log(`gatehouse: starting headless (${reason}); open the UI address below in a browser`);
  foreground(process.execPath, [...serverNodeFlags, '--import', 'tsx', join(root, 'src', 'server', 'cli.ts')], {
    cwd: root,
    onExit: (code) => process.exit(code),
  });
}

function desktop(binary) {
  launchDesktop(binary, [`--js-flags=${v8Flags.join(' ')}`, '.'], {
    cwd: root,
    env: { ...process.env, GATEHOUSE_SQLITE_BINDING: join(root, 'out', 'native', 'better_sqlite3.node') },
    onExit: (code) => process.exit(code),
    onEarlyFailure: (code) => headless(`the desktop app exited with status ${code} before its window opened`),
  });
}

const build = !process.argv.includes('--no-build');
if (build && !run('npx', ['electron-vite', 'build'])) {
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

if (reason !== undefined) headless(reason);
else if (run('node', [join(root, 'scripts', 'build-electron-native.mjs')])) desktop(binary);
else headless('the native module could not be built for Electron');
