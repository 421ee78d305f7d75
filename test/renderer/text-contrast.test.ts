import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const TOKENS = readFileSync(new URL('../../src/renderer/src/styles/tokens.css', import.meta.url), 'utf8');

/** The hex colours a theme block of tokens.css sets, by custom property. */
function theme(selector: string): Record<string, string> {
  const start = TOKENS.indexOf(selector);
  const block = TOKENS.slice(start, TOKENS.indexOf('}', start));
  return Object.fromEntries(
    [...block.matchAll(/(--[\w-]+):\s*(#[0-9a-f]{6})\b/gi)].map((match) => [match[1], match[2]]),
  );
}

/** WCAG 2 contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string): number => {
    const [r, g, bl] = [1, 3, 5].map((at) => {
      const channel = Number.parseInt(hex.slice(at, at + 2), 16) / 255;
      return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (high! + 0.05) / (low! + 0.05);
}

/**
 * The faint and muted text colours carry meaning (placeholders such as "No limit", diff line numbers,
 * hints): both themes keep them readable at WCAG AA (4.5:1) on the page and panel backgrounds.
 */
describe('text contrast of the themes', () => {
  for (const selector of [":root[data-theme='light']", ":root[data-theme='dark']"]) {
    it(`${selector}: faint and muted text reach 4.5:1`, () => {
      const colours = theme(selector);
      for (const text of ['--text-faint', '--text-muted'])
        for (const background of ['--bg', '--bg-subtle'])
          expect(contrast(colours[text]!, colours[background]!), `${text} on ${background}`).toBeGreaterThanOrEqual(
            4.5,
          );
    });
  }
});
