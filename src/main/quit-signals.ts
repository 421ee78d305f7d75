/** How long after a SIGINT another one is the same Ctrl-C: the terminal sends it to the app and npm's launcher forwards it too. */
const SAME_CTRL_C_MS = 1000;

/**
 * Quits on the signals a terminal or a supervisor sends. SIGTERM and SIGHUP come from no one who can
 * answer a question in the window (a supervisor, npm being stopped, the terminal closing): they quit
 * without asking about unsaved changes. SIGINT (Ctrl-C) is a quit like the menu's; pressed again while
 * the window asks, it discards.
 */
export function quitOnSignals(quit: { asking(): void; withoutAsking(signal: NodeJS.Signals): void }): void {
  let lastInterrupt = -Infinity;
  process.on('SIGINT', () => {
    const now = Date.now();
    const repeat = now - lastInterrupt < SAME_CTRL_C_MS;
    lastInterrupt = now;
    if (!repeat) quit.asking();
  });
  for (const signal of ['SIGTERM', 'SIGHUP'] as const) process.on(signal, () => quit.withoutAsking(signal));
}
