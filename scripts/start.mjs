// `npm start`: builds the app, then opens the desktop window where Electron can run, otherwise
// starts the headless server (UI at the printed address). Electron's binary is optional: it
// cannot be downloaded on every machine, and the headless server needs none of it.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureElectronBinary, foreground, launchDesktop } from './launch.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Node flags of the server process (also in package.json's `serve` and the gateway benchmark): one V8
 * worker thread instead of four and an 8 MB young generation instead of 16 keep the gateway's RSS some
 * 30 MB lower under load at no measurable CPU cost (docs/gateway.md, Performance).
 */
const serverNodeFlags = JSON.parse(readFileSync(join(root, 'scripts', 'server-node-flags.json'), 'utf8'));
const v8Flags = serverNodeFlags.filter((flag) => !flag.startsWith('--v8-pool-size'));

function hasDisplay() {
  if (process.platform === 'win32' || process.platform === 'darwin') return true;
  return Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
}

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  return result.status === 0;
}

/**
 * What `npm start -- ...` was given besides `--no-build`: the server command's own arguments, which it
 * checks (an unknown one is refused there, never dropped).
 */
const serverArgs = process.argv.slice(2).filter((arg) => arg !== '--no-build');

/**
 * The configuration file when the arguments name one and nothing else (the desktop app takes that
 * much, through GATEHOUSE_CONFIG), `null` for no arguments, undefined for anything more.
 */
function desktopConfig(args) {
  if (args.length === 0) return null;
  if (args.length === 2 && args[0] === '--config' && args[1] && !args[1].startsWith('-')) return args[1];
  if (args.length === 1 && args[0].startsWith('--config=') && args[0].length > '--config='.length)
    return args[0].slice('--config='.length);
  return undefined;
}

/** The server command in the foreground, with the arguments given. */
function serverCommand() {
  foreground(
    process.execPath,
    [...serverNodeFlags, '--import', 'tsx', join(root, 'src', 'server', 'cli.ts'), ...serverArgs],
    {
      cwd: root,
      onExit: (code) => process.exit(code),
    },
  );
}

function headless(reason) {
  console.log(`gatehouse: starting headless (${reason}); open the UI address below in a browser`);
  serverCommand();
}

function desktop(binary, configFile) {
  // npm runs this in the package's folder; a relative file is the one where `npm start` was typed.
  const config = configFile ? { GATEHOUSE_CONFIG: resolve(process.env.INIT_CWD ?? process.cwd(), configFile) } : {};
  launchDesktop(binary, [`--js-flags=${v8Flags.join(' ')}`, '.'], {
    cwd: root,
    env: {
      ...process.env,
      ...config,
      GATEHOUSE_SQLITE_BINDING: join(root, 'out', 'native', 'better_sqlite3.node'),
    },
    onExit: (code) => process.exit(code),
    onEarlyFailure: (code) => headless(`the desktop app exited with status ${code} before its window opened`),
  });
}

const configFile = desktopConfig(serverArgs);
if (configFile === undefined) {
  // --check, --help, or an argument the command refuses: answered by the server command, with no build
  // and no window.
  serverCommand();
} else {
  start(configFile);
}

function start(configFile) {
  const build = !process.argv.includes('--no-build');
  if (build && !run('npx', ['electron-vite', 'build'])) {
    console.error('gatehouse: the build failed; see the messages above');
    process.exit(1);
  }
  // Said first: the lines that follow (the UI's address, "ui not built") would not say why.
  if (!build && !existsSync(join(root, 'out', 'renderer', 'index.html')))
    console.log('gatehouse: --no-build skipped the build, and there is no earlier one: run npm start without it');

  if (process.env.GATEHOUSE_HEADLESS) return headless('GATEHOUSE_HEADLESS is set');
  if (!hasDisplay()) return headless('there is no display');
  const { binary, reason } = ensureElectronBinary(join(root, 'node_modules', 'electron'), { display: true });
  if (!binary) headless(reason);
  else if (run('node', [join(root, 'scripts', 'build-electron-native.mjs')])) desktop(binary, configFile);
  else headless('the native module could not be built for Electron');
}
