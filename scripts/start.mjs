// `npm start`: builds the app, then opens the desktop window where Electron can run, otherwise
// starts the headless server (UI at the printed address). Electron's binary is optional: it
// cannot be downloaded on every machine, and the headless server needs none of it.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { electronBinary, ensureElectronBinary, foreground, launchDesktop } from './launch.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Node flags of the server process (also in package.json's `serve` and the gateway benchmark): one V8
 * worker thread instead of four and an 8 MB young generation instead of 16 keep the gateway's RSS some
 * 30 MB lower under load at no measurable CPU cost (docs/gateway.md, Performance).
 */
const serverNodeFlags = JSON.parse(readFileSync(join(root, 'scripts', 'server-node-flags.json'), 'utf8'));
const v8Flags = serverNodeFlags.filter((flag) => !flag.startsWith('--v8-pool-size'));

/**
 * Why there is no display to open the window on, or undefined when there is one. A `DISPLAY` left
 * over from an SSH session or a stopped Xvfb names a server that is gone: checked by its socket
 * before Electron's ~100 MB binary is downloaded for a window that cannot open.
 */
function noDisplay(env = process.env) {
  if (process.platform === 'win32' || process.platform === 'darwin') return undefined;
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return 'there is no display';
  if (env.WAYLAND_DISPLAY && existsSync(resolve(env.XDG_RUNTIME_DIR ?? '/', env.WAYLAND_DISPLAY))) return undefined;
  if (env.DISPLAY) {
    // `:N`, `:N.S` or `unix:N` is a local server with a socket; `host:N` (SSH's forwarding) is reached by TCP.
    const local = /^(?:unix)?:(\d+)(?:\.\d+)?$/.exec(env.DISPLAY);
    if (!local || existsSync(`/tmp/.X11-unix/X${local[1]}`)) return undefined;
    return `DISPLAY=${env.DISPLAY} names no running X server`;
  }
  return `WAYLAND_DISPLAY=${env.WAYLAND_DISPLAY} names no running Wayland compositor`;
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
  // No promise of a UI here: the configuration, read next, may turn it off or fail to load; the
  // server prints the UI's address once it serves one.
  console.log(`gatehouse: starting headless (${reason})`);
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
  await start(configFile);
}

/**
 * Whether a Gatehouse server already has the data folder, so this start must stop before it builds (the
 * server's own check, src/main/data-folder-check.ts, loaded through tsx as the server command is).
 */
async function checkDataFolder(configFile) {
  const { tsImport } = await import('tsx/esm/api');
  const { checkDataFolder } = await tsImport('../src/main/data-folder-check.ts', import.meta.url);
  return checkDataFolder(configFile, process.env);
}

async function start(configFile) {
  // Before the build: it empties out/, which the running server serves its UI from.
  const { running, takeover } = await checkDataFolder(configFile);
  if (takeover) console.log(`gatehouse: ${takeover}`);
  if (running) {
    // The desktop app has one instance per data folder (Electron's lock lives in the folder's profile):
    // launched unbuilt, it shows the running window and exits 0, or, when the holder is a headless
    // server, refuses naming it. Without a window to open, said here as before.
    const binary =
      !process.env.GATEHOUSE_HEADLESS && !noDisplay() && electronBinary(join(root, 'node_modules', 'electron'));
    if (!binary) {
      console.error(`gatehouse: ${running}`);
      process.exit(1);
    }
    console.log(`gatehouse: ${running}; not building (it serves its UI from out/)`);
    return desktop(binary, configFile);
  }
  const build = !process.argv.includes('--no-build');
  if (build && !run('npx', ['electron-vite', 'build'])) {
    console.error('gatehouse: the build failed; see the messages above');
    process.exit(1);
  }
  // Said first: the lines that follow (the UI's address, "ui not built") would not say why.
  if (!build && !existsSync(join(root, 'out', 'renderer', 'index.html')))
    console.log('gatehouse: --no-build skipped the build, and there is no earlier one: run npm start without it');

  if (process.env.GATEHOUSE_HEADLESS) return headless('GATEHOUSE_HEADLESS is set');
  const displayMissing = noDisplay();
  if (displayMissing) return headless(displayMissing);
  const { binary, reason } = ensureElectronBinary(join(root, 'node_modules', 'electron'), { display: true });
  if (!binary) headless(reason);
  else if (run('node', [join(root, 'scripts', 'build-electron-native.mjs')])) desktop(binary, configFile);
  else headless('the native module could not be built for Electron');
}
