import { dialog, type BrowserWindow, type RenderProcessGoneDetails } from 'electron';

/** Chromium's code for a load another navigation replaced: nothing failed. */
const ERR_ABORTED = -3;

function goneReason(reason: RenderProcessGoneDetails['reason']): string {
  switch (reason) {
    case 'crashed':
      return 'the page crashed';
    case 'oom':
      return 'the page ran out of memory';
    case 'killed':
      return 'the page was ended by another process';
    case 'launch-failed':
      return 'the page could not be started';
    case 'integrity-failure':
      return 'the page failed a code integrity check';
    case 'memory-eviction':
      return 'the page was ended to free memory';
    case 'abnormal-exit':
    case 'clean-exit':
      return 'the page ended unexpectedly';
  }
}

/**
 * A page that failed to load, or whose renderer went away, would leave an empty or invisible window
 * (it is shown on its first paint): say why, and offer a reload or to quit. One box at a time.
 */
export function reportLoadFailures(window: BrowserWindow, quit: () => void): void {
  let asking = false;
  const offer = (message: string, detail: string): void => {
    if (asking || window.isDestroyed()) return;
    asking = true;
    window.show();
    void dialog
      .showMessageBox(window, {
        type: 'error',
        buttons: ['Reload', 'Quit'],
        defaultId: 0,
        cancelId: 1,
        title: 'Gatehouse',
        message,
        detail,
      })
      .then(({ response }) => {
        asking = false;
        if (window.isDestroyed()) return;
        if (response === 0) window.webContents.reload();
        else quit();
      });
  };
  window.webContents.on('did-fail-load', (_event, code, description, url, isMainFrame) => {
    if (!isMainFrame || code === ERR_ABORTED) return;
    offer(
      'The page could not be loaded',
      `${url}: ${description} (${code}). The servers run in this app; a reload tries again.`,
    );
  });
  window.webContents.on('render-process-gone', (_event, details) => {
    if (details.reason === 'clean-exit') return;
    offer(
      'The window stopped working',
      `${goneReason(details.reason)} (exit code ${details.exitCode}). A reload starts it again; unsaved changes are lost.`,
    );
  });
}
