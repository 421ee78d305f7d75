// The processes `npm start` runs (scripts/start.mjs): kept apart from its build and its choice, so the
// desktop app's fallback can be tested with a stand-in for Electron's binary.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The line the desktop app's main process prints once its window is open (src/main/index.ts). */
export const READY_LINE = 'gatehouse: desktop window open';

/**
 * The status the desktop app exits with when it refused to start and said why (src/main/start-refusal.ts
 * holds the same number): the headless server would refuse again with the same words, so it is final.
 */
export const START_REFUSED_EXIT_CODE = 78;

/**
 * Runs the child in the foreground; our signals go to it so it can shut down cleanly, and so does our
 * parent's leaving: npm passes SIGTERM to the shell between it and this script, which dies of it
 * without passing it on, and the app would live on, orphaned, holding its ports and data folder.
 * `onExit` gets the child's exit status (1 for a signal) and whether a stop was asked of it.
 */
export function foreground(command, args, { cwd, env = process.env, stdout = 'inherit', onExit }) {
  let stopAsked = false;
  const child = spawn(command, args, { cwd, stdio: ['inherit', stdout, 'inherit'], env });
  const forward = (signal) => {
    stopAsked = true;
    child.kill(signal);
  };
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'].map((signal) => [signal, () => forward(signal)]);
  for (const [signal, handler] of signals) process.on(signal, handler);
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    forward('SIGTERM');
  }, 500);
  watch.unref();
  let failedToSpawn = false;
  child.on('error', (error) => {
    failedToSpawn = true;
    process.stderr.write(`gatehouse: could not run ${command}: ${error.message}\n`);
  });
  child.on('close', (code, signal) => {
    clearInterval(watch);
    for (const [name, handler] of signals) process.off(name, handler);
    onExit(failedToSpawn ? 1 : (code ?? (signal ? 1 : 0)), stopAsked);
  });
  return child;
}

/**
 * The desktop app. Should Electron fail before its window opens (a missing system library, a sandbox
 * it cannot set up, a native module built for another version), `onEarlyFailure` gets its status, so
 * the headless server can start instead rather than leaving the user with nothing; any other end,
 * a start the app refused ({@link START_REFUSED_EXIT_CODE}) among them, goes to `onExit`. `ELECTRON_RUN_AS_NODE`, inherited from another Electron tool, would make the
 * binary a plain Node that cannot open a window: it is not passed on.
 */
export function launchDesktop(binary, args, { cwd, env, onExit, onEarlyFailure }) {
  const childEnv = { ...env };
  delete childEnv.ELECTRON_RUN_AS_NODE;
  let ready = false;
  let seen = '';
  const child = foreground(binary, args, {
    cwd,
    env: childEnv,
    stdout: 'pipe',
    onExit: (code, stopAsked) => {
      if (code === 0 || ready || stopAsked || code === START_REFUSED_EXIT_CODE) onExit(code);
      else onEarlyFailure(code);
    },
  });
  child.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    if (ready) return;
    seen = (seen + chunk.toString('utf8')).slice(-4096);
    ready = seen.includes(READY_LINE);
  });
  return child;
}

/** The Electron binary's path in the `electron` package folder `dir`, when it was installed. */
export function electronBinary(dir) {
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const binary = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : undefined;
}

/**
 * Loaded into Electron's install.js, which prints a failed download's stack and never its cause: an
 * error prints as one line that names the cause (`fetch failed (ENOTFOUND github.com)`), so `npm start`
 * can say why the download failed without a stack trace.
 */
const ONE_LINE_ERRORS = `data:text/javascript,${encodeURIComponent(`
  const causeOf = (error) => {
    const cause = error?.cause;
    if (!cause) return '';
    const code = cause.code ?? cause.errors?.[0]?.code;
    const where = cause.hostname ?? cause.address ?? cause.errors?.[0]?.address;
    return ' (' + [code ?? cause.message, where].filter(Boolean).join(' ') + ')';
  };
  Error.prepareStackTrace = (error) => String(error?.name ?? 'Error') + ': ' + String(error?.message ?? '') + causeOf(error);
`)}`;

/** The last line a process wrote that says something, without its line break. */
function lastLine(text) {
  return (text ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .at(-1);
}

/** Long enough for Electron's ~100 MB on a slow line, short enough that `npm start` never hangs on it. */
const INSTALL_TIMEOUT_MS = 5 * 60_000;

/**
 * Electron's binary, downloaded first when it is missing: from Electron 42 on, installing the package
 * no longer fetches it, and `require('electron')` would fetch it unbounded. Only where there is a display
 * to open the window on: tests and CI (no display) never download. `{ binary }`, or `{ reason }` to start
 * headless for, saying how to install it by hand.
 */
export function ensureElectronBinary(dir, { display, timeoutMs = INSTALL_TIMEOUT_MS }) {
  const installed = electronBinary(dir);
  if (installed) return { binary: installed };
  if (!display) return { reason: "Electron's binary is not installed" };
  const seconds = Math.round(timeoutMs / 1000);
  console.log(`gatehouse: downloading Electron's binary (node node_modules/electron/install.js, at most ${seconds} s)`);
  const result = spawnSync(process.execPath, ['--import', ONE_LINE_ERRORS, join(dir, 'install.js')], {
    stdio: ['ignore', 'inherit', 'pipe'],
    encoding: 'utf8',
    timeout: timeoutMs,
  });
  const binary = electronBinary(dir);
  if (binary) return { binary };
  const said = lastLine(result.stderr);
  const why =
    result.error?.code === 'ETIMEDOUT'
      ? `it did not finish within ${seconds} s`
      : result.error
        ? result.error.message
        : `${said ? `${said}; ` : ''}it exited with status ${result.status ?? result.signal}`;
  return {
    reason: `Electron's binary could not be downloaded: ${why}; run npx install-electron in ${join(dir, '..', '..')}, then npm start again`,
  };
}
