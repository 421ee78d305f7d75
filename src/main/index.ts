import { app, dialog, type BrowserWindow } from 'electron';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { closeToDeadline, type DeadlineClose } from '../server/shutdown.js';
import { registerIpcHandlers } from './ipc.js';
import { installSecurity, openExternalIfSafe, type TrustedOrigins } from './security.js';
import { hostServers, type HostedServers } from './server-host.js';
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
    void mainWindow.loadURL(hosted.servers.uiUrl);
    mainWindow.on('closed', () => {
      mainWindow = undefined;
      if (quitWaitsForWindow) app.quit();
    });
    return;
  }
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.focus();
}

async function start(): Promise<void> {
  try {
    hosted = await hostServers(app.getAppPath(), app.getVersion());
  } catch (error) {
    dialog.showErrorBox('Gatehouse could not start', (error as Error).message);
    app.exit(1);
    return;
  }
  origins = { app: new URL(hosted.servers.gatewayUrl).origin, store: new URL(hosted.servers.storeUrl).origin };
  const connection = hosted.connection;
  registerIpcHandlers({
    isTrusted: (url) => origins !== undefined && isTrustedAppUrl(url, origins.app),
    connection: () => connection,
    openExternal: (url) => openExternalIfSafe(url),
  });
  showWindow();
  // `npm start` reads this line: an exit before it is a failure to start, answered by the headless server.
  process.stdout.write(`gatehouse: desktop window open on ${hosted.servers.uiUrl}\n`);
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
  app.on('second-instance', showWindow);
  app.on('activate', showWindow);
  app.on('window-all-closed', () => {
    // Closed by a quit that is under way: that quit goes on, and this is no second one.
    if (process.platform !== 'darwin' && !stopping) app.quit();
  });
  app.on('before-quit', stopThenQuit);
  void app.whenReady().then(start);
}
