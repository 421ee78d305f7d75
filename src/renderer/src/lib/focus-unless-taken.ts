/**
 * Focuses `element` as where a screen starts, unless the user has already moved focus to something
 * else on the screen: a list's rows can arrive after they clicked or tabbed into a control beside
 * it, and taking focus back then would send their next key press to the wrong place. The screen's
 * heading, where focus lands when the screen opens, is not such a move: the list takes over from it.
 */
export function focusUnlessTaken(element: HTMLElement | null): void {
  if (!element) return;
  const active = document.activeElement;
  const screen = element.closest('main');
  const taken =
    active !== null &&
    active !== document.body &&
    !element.contains(active) &&
    active !== screenHeading(screen) &&
    screen?.contains(active);
  if (!taken) element.focus({ preventScroll: true });
}

/** A screen's main heading (its `h1`), if it has one. */
function screenHeading(screen: HTMLElement | null | undefined): HTMLElement | null {
  return screen?.querySelector<HTMLElement>('h1') ?? null;
}

/**
 * Moves focus into a screen just opened, so keyboard and screen reader users go on from its start
 * rather than from the link that opened it: to its heading, or to the screen itself when it has none.
 * Focus the screen already put somewhere of its own (a list read from the cache) stays there.
 */
export function focusScreenStart(screen: HTMLElement | null): void {
  if (!screen || screen.contains(document.activeElement)) return;
  const target = screenHeading(screen) ?? screen;
  if (!target.hasAttribute('tabindex')) {
    target.tabIndex = -1;
    // Focusable only for this move when it is the screen itself: a click inside must not take focus from its lists.
    if (target === screen) target.addEventListener('blur', () => target.removeAttribute('tabindex'), { once: true });
  }
  target.focus({ preventScroll: true });
}
