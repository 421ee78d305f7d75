/**
 * Focuses `element` as where a screen starts, unless the user has already moved focus to something
 * else on the screen: a list's rows can arrive after they clicked or tabbed into a control beside
 * it, and taking focus back then would send their next key press to the wrong place.
 */
export function focusUnlessTaken(element: HTMLElement | null): void {
  if (!element) return;
  const active = document.activeElement;
  const screen = element.closest('main');
  const taken = active !== null && active !== document.body && !element.contains(active) && screen?.contains(active);
  if (!taken) element.focus({ preventScroll: true });
}
