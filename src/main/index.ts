import { app, dialog, type BrowserWindow } from 'electron';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { closeToDeadline, type DeadlineClose } from '../server/shutdown.js';
import { installAppMenu } from './app-menu.js';
import { registerIpcHandlers } from './ipc.js';
import { reportLoadFailures } from './load-failure.js';
import { installSecurity, openExternalIfSafe, type TrustedOrigins } from './security.js';
import { trustOwnCertificate } from './own-certificate.js';
import { hostServers, type HostedServers } from './server-host.js';
import { isStartRefusal, START_REFUSED_EXIT_CODE } from './start-refusal.js';
import { isTrustedAppUrl } from './trusted-url.js';
import { createMainWindow } from './window.js';

// Lifecycle: one instance, servers in-process, one window on the gateway's /ui/ (the same page a
// browser gets, so the renderer has one origin model), servers closed before the app exits.

const preloadPath = join(fileURLToPath(new URL('.', import.meta.url)), '..', 'preload', 'index.cjs');
let hosted: HostedServers | undefined;
let origins: TrustedOrigins | undefined;
let mainWindow: BrowserWindow | undefined;
/** Set while a quit waits for the window to close; cleared when the user keeps unsaved changes. */
let quitWaitsForWindow = false;

let stopping = false;
/** The servers' close once a quit began: a second quit cuts what is still running. */
let closing: DeadlineClose | undefined;

function showWindow(): void {
  // A launch while quitting would open a window on servers that are closing.
  if (stopping) return;
  if (!mainWindow || mainWindow.isDestroyed()) {
    if (!hosted) return;
    mainWindow = createMainWindow(preloadPath, () => (quitWaitsForWindow = false));
    reportLoadFailures(mainWindow, () => app.quit());
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
  // Once the window shows: a box on a hidden window is easy to miss (and on macOS, a sheet of nothing).
  window.once(
    'ready-to-show',
    () =>
      void dialog.showMessageBox(window, {
        type: 'info',
        title: 'Gatehouse',
        message: 'A usual port was in use',
        detail: `${sentences.map((s) => `${s[0]!.toUpperCase()}${s.slice(1)}.`).join('\n')}\nClients set to the usual address reach that other process, not this app.`,
      }),
  );
}

async function start(): Promise<void> {
  installAppMenu(app.isPackaged);
  try {
    hosted = await hostServers(app.getAppPath(), app.getVersion());
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
  if (mainWindow && !mainWindow.isDestroyed()) {
    quitWaitsForWindow = true;
    mainWindow.close();
    return;
  }
  stopping = true;
  closing = closeToDeadline(hosted.servers, hosted.shutdownTimeoutMs, (code) => app.exit(code));
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
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
