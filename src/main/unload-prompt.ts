import { dialog, type BrowserWindow } from 'electron';

/**
 * A page with unsaved changes refuses to unload (`beforeunload`); Electron then cancels a reload or
 * close silently instead of asking as a browser does, so the window would just not close. Ask the
 * user here; `onKeep` runs when they keep editing (a quit that waited for the window then stops), `onAsk`
 * when the box opens.
 *
 * The box is asynchronous: the servers run in this process, and a synchronous box left open would
 * hold every SDK client's request and stream until it is answered. The unload stays cancelled
 * meanwhile; on Discard the window is destroyed (a close: no second `beforeunload`) or reloaded with
 * its next refusal let through (a reload).
 */
export function promptBeforeUnload(window: BrowserWindow, onKeep: () => void, onAsk: () => void = () => {}): void {
  /** The page's next refusal is let through: the user already chose to discard. */
  let discarding = false;
  /** Set by a close, just before the page's `beforeunload` runs. */
  let closeAsked = false;
  /** Whether the unload the open box asks about includes a close (one may come while it is open). */
  let asking: { close: boolean } | undefined;
  window.on('close', () => (closeAsked = true));
  // A reload the page let go without refusing (its changes were saved meanwhile) must not leave the
  // next refusal let through unasked.
  window.webContents.on('did-start-loading', () => (discarding = false));
  window.webContents.on('will-prevent-unload', (event) => {
    const close = closeAsked;
    closeAsked = false;
    if (discarding) {
      discarding = false;
      // preventDefault here cancels the page's refusal: the unload proceeds.
      event.preventDefault();
      return;
    }
    if (asking) {
      asking.close ||= close;
      return;
    }
    const question = { close };
    asking = question;
    onAsk();
    void dialog
      .showMessageBox(window, {
        type: 'question',
        buttons: ['Discard changes', 'Keep editing'],
        defaultId: 1,
        cancelId: 1,
        title: 'Unsaved changes',
        message: 'Discard unsaved changes?',
        detail: 'A screen has changes that have not been saved. Discarding them cannot be undone.',
      })
      .then(({ response }) => {
        asking = undefined;
        if (window.isDestroyed()) return;
        if (response !== 0) onKeep();
        else if (question.close) window.destroy();
        else {
          discarding = true;
          window.webContents.reload();
        }
      });
  });
}
