import { useLayoutEffect, type RefObject } from 'react';

/** The custom property the page body pads its foot with (`.page-body` in layout.css). */
const ROOM = '--save-bar-room';

/**
 * Keeps room at the foot of the screen for the bar floating over it, as tall as the bar is now: a
 * refusal or a reason in the bar makes it several lines high, and the page's last rows (often the
 * one to fix) would otherwise stay under it, out of reach of scrolling.
 */
export function useSaveBarRoom(bar: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    const element = bar.current;
    const screen = element?.parentElement;
    if (!element || !screen) return;
    const measure = (): void => {
      const gap = screen.getBoundingClientRect().bottom - element.getBoundingClientRect().bottom;
      screen.style.setProperty(ROOM, `${Math.ceil(element.offsetHeight + Math.max(0, gap))}px`);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => {
      observer.disconnect();
      screen.style.removeProperty(ROOM);
    };
  }, [bar]);
}
