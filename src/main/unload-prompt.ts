import { dialog, type BrowserWindow } from 'electron';

/**
 * A page with unsaved changes refuses to unload (`beforeunload`); Electron then cancels a reload or
 * close silently instead of asking as a browser does, so the window would just not close. Ask the
 * user here and let the unload go on when they choose to discard; `onKeep` runs when they keep
 * editing (a quit that waited for the window then stops).
 */
export function promptBeforeUnload(window: BrowserWindow, onKeep: () => void): void {
  window.webContents.on('will-prevent-unload', (event) => {
    const choice = dialog.showMessageBoxSync(window, {
      type: 'question',
      buttons: ['Discard changes', 'Keep editing'],
      defaultId: 1,
      cancelId: 1,
      title: 'Unsaved changes',
      message: 'Discard unsaved changes?',
      detail: 'A screen has changes that have not been saved. Discarding them cannot be undone.',
    });
    // preventDefault here cancels the page's refusal: the unload proceeds.
    if (choice === 0) event.preventDefault();
    else onKeep();
  });
}
