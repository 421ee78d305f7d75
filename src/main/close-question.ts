import { dialog, type BrowserWindow } from 'electron';

/** What closing the window with clients' requests running needs from the lifecycle. */
export interface CloseQuestion {
  /** Whether this close would quit the app of itself (not one a quit under way made, not on macOS). */
  readonly closeQuits: () => boolean;
  /** The gateway's model requests in flight (its pipeline's count, read only when the window closes). */
  readonly requestsInFlight: () => number;
  /** Where clients reach the gateway, as `127.0.0.1:8747`. */
  readonly address: string;
  readonly quit: () => void;
}

/**
 * Asks before a window close that quits the app ends clients' requests: the app is the endpoint other
 * programs call, and the ✕ is easily taken for "hide". With none in flight it closes as before.
 * Cancel is the default: ending someone's request is what the box warns of.
 */
export function askBeforeClosingOnRequests(window: BrowserWindow, question: CloseQuestion): void {
  let asking = false;
  window.on('close', (event) => {
    if (!question.closeQuits()) return;
    const running = question.requestsInFlight();
    if (running === 0) return;
    event.preventDefault();
    if (asking) return;
    asking = true;
    void dialog
      .showMessageBox(window, {
        type: 'question',
        title: 'Gatehouse',
        message: `${running} ${running === 1 ? 'request' : 'requests'} in progress on ${question.address}`,
        detail:
          'Closing the window quits Gatehouse and stops its gateway: requests still running after the shutdown timeout are ended.',
        buttons: ['Quit', 'Cancel'],
        defaultId: 1,
        cancelId: 1,
      })
      .then(({ response }) => {
        asking = false;
        if (response === 0) question.quit();
      });
  });
}
