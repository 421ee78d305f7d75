/**
 * Runs `start` while the page is shown: what it started is stopped on `pagehide` and started again
 * on `pageshow`. A browser keeps the last pages of a tab in its back/forward cache, and a cached
 * page's open connections still count towards the few a browser allows to one host (six in
 * Chrome): a handful of them would leave the next page of the same origin waiting for one.
 * Returns the function that stops for good.
 */
export function whileShown(start: () => () => void): () => void {
  let stop: (() => void) | undefined = start();
  const hide = (): void => {
    stop?.();
    stop = undefined;
  };
  // Also fired on the first load, while already started.
  const show = (): void => {
    stop ??= start();
  };
  window.addEventListener('pagehide', hide);
  window.addEventListener('pageshow', show);
  return () => {
    window.removeEventListener('pagehide', hide);
    window.removeEventListener('pageshow', show);
    hide();
  };
}
