import type { Locator } from '@playwright/test';
import { expect } from './fixtures.js';

/** The few DOM members the colour checks use: the e2e files are type-checked without the DOM library. */
interface PaintedElement {
  readonly parentElement: PaintedElement | null;
}
interface ColourGlobals {
  getComputedStyle(element: PaintedElement): { readonly color: string; readonly backgroundColor: string };
}

/** WCAG 2 contrast ratio of two opaque `rgb(r, g, b)` colours, as computed styles give them. */
export function contrast(foreground: string, background: string): number {
  const luminance = (colour: string): number => {
    const channels = (colour.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
    expect(channels, `an rgb colour: ${colour}`).toHaveLength(3);
    const [r, g, b] = channels.map((value) => {
      const c = value / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const [light, dark] = [luminance(foreground), luminance(background)].sort((a, b) => b - a);
  return (light! + 0.05) / (dark! + 0.05);
}

/** An element's text colour and the background it is drawn on (its own, or the nearest painted ancestor's). */
export function colours(element: Locator): Promise<{ color: string; background: string }> {
  return element.evaluate((start: PaintedElement) => {
    const { getComputedStyle } = globalThis as unknown as ColourGlobals;
    let node: PaintedElement | null = start;
    let background = 'rgb(255, 255, 255)';
    while (node) {
      const paint = getComputedStyle(node).backgroundColor;
      if (paint !== 'rgba(0, 0, 0, 0)' && paint !== 'transparent') {
        background = paint;
        break;
      }
      node = node.parentElement;
    }
    return { color: getComputedStyle(start).color, background };
  });
}

/** Fails unless the element's text reads at 4.5:1 or more on its background (WCAG AA). */
export async function expectReadable(element: Locator, what: string): Promise<void> {
  const { color, background } = await colours(element);
  expect(contrast(color, background), `${what}: ${color} on ${background}`).toBeGreaterThanOrEqual(4.5);
}
