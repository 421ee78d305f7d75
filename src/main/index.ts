import { app, dialog, shell, type BrowserWindow } from 'electron';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoadedConfig } from '../server/config/load.js';
import { alsoWriteLogsTo } from '../server/http/logger.js';
import { closeToDeadline, type DeadlineClose } from '../server/shutdown.js';
import { installAppMenu } from './app-menu.js';
import { askBeforeClosingOnRequests } from './close-question.js';
import { useDataFolderProfile } from './data-folder-profile.js';
import { loadDesktopConfig } from './desktop-config.js';
import { registerIpcHandlers } from './ipc.js';
import { reportLoadFailures } from './load-failure.js';
import { openLogFile, type LogFile } from './log-file.js';
import { quitOnSignals } from './quit-signals.js';
import { installSecurity, openExternalIfSafe, type TrustedOrigins } from './security.js';
import { trustOwnCertificate } from './own-certificate.js';
import { hostServers, type HostedServers } from './server-host.js';
import { isStartRefusal, START_REFUSED_EXIT_CODE } from './start-refusal.js';
import { isTrustedAppUrl } from './trusted-url.js';
import { createMainWindow } from './window.js';

// Lifecycle: one instance per data folder, servers in-process, one window on the gateway's /ui/ (the
// same page a browser gets, so the renderer has one origin model), servers closed before the app exits.

const preloadPath = join(fileURLToPath(new URL('.', import.meta.url)), '..', 'preload', 'index.cjs');
let hosted: HostedServers | undefined;
let origins: TrustedOrigins | undefined;
let mainWindow: BrowserWindow | undefined;
/** Set while a quit waits for the window to close; cleared when the user keeps unsaved changes. */
let quitWaitsForWindow = false;
/** Set once the window asks about unsaved changes during that wait: the user is choosing, not the page hanging. */
let quitAsked = false;

/** How long a quit waits for a page that neither closes nor asks (a hung renderer never answers `beforeunload`). */
const UNANSWERED_CLOSE_MS = 5000;

/**
 * The configuration, read before the app is ready: its data folder chooses Electron's profile, and
 * so the single-instance lock. A configuration that cannot be read is said once the app is ready.
 */
let configured: { readonly loaded: LoadedConfig } | { readonly error: unknown };
try {
  configured = { loaded: loadDesktopConfig() };
} catch (error) {
  configured = { error };
}
let logFile: LogFile | undefined;

let stopping = false;
/** The servers' close once a quit began: a second quit cuts what is still running. */
let closing: DeadlineClose | undefined;

function showWindow(): void {
  // A launch while quitting would open a window on servers that are closing.
  if (stopping) return;
  if (!mainWindow || mainWindow.isDestroyed()) {
    if (!hosted) return;
    mainWindow = createMainWindow(
      preloadPath,
      () => (quitWaitsForWindow = false),
      () => {
        if (!quitWaitsForWindow) return;
        quitAsked = true;
        process.stdout.write(
          'gatehouse: waiting for the answer to "Discard unsaved changes?" in the window; quit again (Ctrl-C) to discard them and quit\n',
        );
      },
    );
    reportLoadFailures(mainWindow, () => app.quit());
    const servers = hosted;
    askBeforeClosingOnRequests(mainWindow, {
      closeQuits: () => process.platform !== 'darwin' && !quitWaitsForWindow && !stopping,
      requestsInFlight: servers.requestsInFlight,
      address: new URL(servers.addresses.gatewayUrl).host,
      quit: () => app.quit(),
    });
    void mainWindow.loadURL(hosted.addresses.uiUrl);
    mainWindow.on('closed', () => {
      mainWindow = undefined;
      if (quitWaitsForWindow) app.quit();
    });
    return;
  }
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.focus();
}

/** Says why the start failed (on the terminal too, as `npm run serve` would) and exits. */
function refuseStart(error: unknown): void {
  const message = (error as Error).message;
  process.stderr.write(`gatehouse: ${message}\n`);
  dialog.showErrorBox('Gatehouse could not start', message);
  // A refusal is final for `npm start`; anything else may still work headless, which it then starts.
  app.exit(isStartRefusal(error) ? START_REFUSED_EXIT_CODE : 1);
}

/** Tells the user, without holding the servers, that clients set to a default port will not reach this app. */
function sayMovedPorts(sentences: readonly string[]): void {
  const window = mainWindow;
  if (sentences.length === 0 || !window) return;
  let said = false;
  const say = (): void => {
    if (said || window.isDestroyed()) return;
    said = true;
    void dialog.showMessageBox(window, {
      type: 'info',
      title: 'Gatehouse',
      message: 'A usual port was in use',
      detail: `${sentences.map((s) => `${s[0]!.toUpperCase()}${s.slice(1)}.`).join('\n')}\nClients set to the usual address reach that other process, not this app.`,
    });
  };
  // Once the window shows: a box on a hidden window is easy to miss (and on macOS, a sheet of nothing).
  // A first load that fails shows the window without `ready-to-show` (load-failure.ts), hence `show` too.
  window.once('ready-to-show', say);
  window.once('show', say);
}

async function start(): Promise<void> {
  const logs = logFile;
  installAppMenu(app.isPackaged, logs && (() => shell.showItemInFolder(logs.path)));
  try {
    if ('error' in configured) throw configured.error;
    hosted = await hostServers(configured.loaded, app.getAppPath(), app.getVersion());
  } catch (error) {
    refuseStart(error);
    return;
  }
  const { addresses, connection } = hosted;
  origins = { app: new URL(addresses.gatewayUrl).origin, store: new URL(addresses.storeUrl).origin };
  registerIpcHandlers({
    isTrusted: (url) => origins !== undefined && isTrustedAppUrl(url, origins.app),
    connection: () => connection,
    openExternal: (url) => openExternalIfSafe(url),
  });
  showWindow();
  sayMovedPorts(hosted.movedPorts);
  // `npm start` reads this line: an exit before it is a failure to start, answered by the headless server.
  process.stdout.write(`gatehouse: desktop window open on ${addresses.uiUrl}\n`);
}

/**
 * Closes the window first, as a quit without servers would: a screen with unsaved changes asks
 * before it goes (`app.exit` below would skip that), and keeping them cancels the quit. Then finishes
 * requests in flight and closes the database, as the headless server does on a signal: requests
 * still running after `server.shutdown_timeout_ms` (a client's long stream) are ended, so a quit
 * never leaves a windowless process holding the data folder.
 */
function stopThenQuit(event: { preventDefault(): void }): void {
  if (!hosted) return;
  // Already stopping: exit stays ours, and a second quit (Ctrl-C again) ends the requests still running.
  event.preventDefault();
  if (closing !== undefined) {
    closing.cutNow('quit again');
    return;
  }
  const window = mainWindow;
  if (window && !window.isDestroyed()) {
    // Quit again while the first one waits (the box left open, or a page that never answers): the
    // window goes without asking, and its 'closed' carries the quit on.
    if (quitWaitsForWindow) return closeWithoutAsking(window, 'quit again');
    quitWaitsForWindow = true;
    quitAsked = false;
    window.close();
    setTimeout(() => {
      if (quitWaitsForWindow && !quitAsked && mainWindow === window)
        closeWithoutAsking(window, `the window did not close within ${UNANSWERED_CLOSE_MS / 1000} s`);
    }, UNANSWERED_CLOSE_MS).unref();
    return;
  }
  stopping = true;
  closing = closeToDeadline(hosted.servers, hosted.shutdownTimeoutMs, (code) => app.exit(code));
}

/** Destroys the window (no `beforeunload`, no question) and quits, saying why on the terminal. */
function closeWithoutAsking(window: BrowserWindow, why: string): void {
  process.stdout.write(`gatehouse: ${why}: closing the window without asking about unsaved changes\n`);
  quitWaitsForWindow = true;
  window.destroy();
}

/** The data folder's own profile (data-folder-profile.ts); Electron's default one when it cannot be made. */
function chooseProfile(): void {
  if (!('loaded' in configured)) return;
  try {
    useDataFolderProfile(configured.loaded.config.server.data_dir!);
  } catch (error) {
    // The servers' start, which needs the same folder, then says why in its own words.
    process.stderr.write(
      `gatehouse: could not use the data folder for the window's profile: ${(error as Error).message}\n`,
    );
  }
}

/** The servers' log lines, also to `<data folder>/logs/gatehouse.log`: a launch without a terminal keeps them. */
function writeLogFile(): void {
  if (!('loaded' in configured)) return;
  try {
    logFile = openLogFile(configured.loaded.config.server.data_dir!, {
      onError: (message) => process.stderr.write(`gatehouse: ${message}\n`),
    });
    alsoWriteLogsTo(logFile);
  } catch (error) {
    process.stderr.write(`gatehouse: could not open the log file: ${(error as Error).message}\n`);
  }
}

chooseProfile();
if (!app.requestSingleInstanceLock()) {
  // The app on this data folder shows its window (its 'second-instance'); said here, or `npm start` ends in silence.
  process.stdout.write('gatehouse: already running: showed its window instead of starting another\n');
  app.quit();
} else {
  writeLogFile();
  quitOnSignals({
    asking: () => app.quit(),
    withoutAsking: (signal) => {
      const window = mainWindow;
      if (window && !window.isDestroyed() && !stopping) closeWithoutAsking(window, `${signal} received`);
      else app.quit();
    },
  });
  installSecurity(() => origins);
  trustOwnCertificate(() => origins && { origins, certificate: hosted?.servers.tlsCertificate });
  app.on('second-instance', showWindow);
  app.on('activate', showWindow);
  app.on('window-all-closed', () => {
    // Closed by a quit that is under way: that quit goes on, and this is no second one.
    if (process.platform !== 'darwin' && !stopping) app.quit();
  });
  app.on('before-quit', stopThenQuit);
  void app.whenReady().then(start);
}
