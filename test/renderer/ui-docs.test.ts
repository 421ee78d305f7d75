import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GO_TO_KEYS } from '../../src/renderer/src/app/go-to-keys.js';

const doc = readFileSync(new URL('../../docs/ui.md', import.meta.url), 'utf8');

/** The rows of the table under a `## heading`, as their cells. */
function tableUnder(heading: string): string[][] {
  const section = doc.slice(doc.indexOf(`\n## ${heading}\n`) + 1);
  return section
    .split('\n')
    .slice(1)
    .filter((line, index, lines) => line.startsWith('|') && lines.slice(0, index).every((l) => !l.startsWith('#')))
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
}

/** The app's route paths, read as text: importing the route table would load every screen, which needs a browser. */
function routePaths(): string[] {
  const routes = readFileSync(new URL('../../src/renderer/src/app/routes.tsx', import.meta.url), 'utf8');
  return [...routes.matchAll(/^ {2}'([a-z/]*)': \{ title: '([^']+)'/gm)].map((match) => match[1]!);
}

describe('docs/ui.md', () => {
  it('lists every "g" shortcut the app has, and no other', () => {
    const row = tableUnder('Keyboard').find((cells) => cells[0]!.startsWith('`g` then'));
    expect(row, 'the "g then" row').toBeDefined();
    const keys = [...row![0]!.matchAll(/`([^`]+)`/g)].map((match) => match[1]).slice(1);
    expect(keys).toEqual(Object.keys(GO_TO_KEYS));
  });

  it('has a row in the Screens table for every screen of the app', () => {
    const documented = tableUnder('Screens').map((cells) =>
      /`\/ui\/([^`?]*)/.exec(cells[1] ?? '')?.[1]?.replace(/\/$/, ''),
    );
    const paths = routePaths();
    expect(paths).toContain('gateway/cache');
    for (const path of paths) expect(documented, path).toContain(path);
    for (const { path, label } of Object.values(GO_TO_KEYS)) expect(paths, label).toContain(path);
  });

  it('has a "g" shortcut for every screen of the app', () => {
    const paths = routePaths();
    const reachable = Object.values(GO_TO_KEYS).map((target) => target.path);
    expect(paths).toContain('store/maintenance');
    for (const path of paths) expect(reachable, path).toContain(path);
  });
});
