import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  parseWindowState,
  placeWindow,
  readWindowState,
  writeWindowState,
  type WindowState,
} from '../../src/main/window-state.js';

// The main window's saved place (src/main/window-state.ts): what is read back, and where a window
// opens when the displays changed since it was saved.

const laptop = { x: 0, y: 0, width: 1920, height: 1040 };
/** A second monitor to the laptop's right. */
const external = { x: 1920, y: 0, width: 2560, height: 1400 };

const state = (x: number, y: number, width = 1200, height = 800, maximized = false): WindowState => ({
  bounds: { x, y, width, height },
  maximized,
});

describe('placeWindow', () => {
  it('opens a first window at the default size, centred', () => {
    expect(placeWindow(undefined, [laptop])).toEqual({ bounds: undefined, maximized: false });
  });

  it('restores bounds that lie on a display, and the maximised state', () => {
    expect(placeWindow(state(100, 50), [laptop])).toEqual(state(100, 50));
    expect(placeWindow(state(2200, 100, 1600, 1000, true), [laptop, external])).toEqual(
      state(2200, 100, 1600, 1000, true),
    );
  });

  it('opens centred on the default size when the saved place is off every display', () => {
    expect(placeWindow(state(5000, 3000), [laptop])).toEqual({ bounds: undefined, maximized: false });
    expect(placeWindow(state(-3000, 100), [laptop])).toEqual({ bounds: undefined, maximized: false });
    expect(placeWindow(state(100, -2000), [laptop])).toEqual({ bounds: undefined, maximized: false });
  });

  it('opens centred, still maximised, when the monitor it was on has been removed', () => {
    const onExternal = state(2400, 200, 1600, 1000, true);
    expect(placeWindow(onExternal, [laptop, external]).bounds).toEqual(onExternal.bounds);
    expect(placeWindow(onExternal, [laptop])).toEqual({ bounds: undefined, maximized: true });
  });

  it('does not restore a window of which only a sliver is on a display', () => {
    // 20 px of it on the laptop's right edge: nothing to grab.
    expect(placeWindow(state(1900, 100), [laptop]).bounds).toBeUndefined();
    // Its title bar above the top of the screen with 30 px showing.
    expect(placeWindow(state(100, -770), [laptop]).bounds).toBeUndefined();
  });

  it('moves a window partly off its display wholly onto it', () => {
    expect(placeWindow(state(1500, 600), [laptop]).bounds).toEqual({ x: 720, y: 240, width: 1200, height: 800 });
    expect(placeWindow(state(-600, -100), [laptop]).bounds).toEqual({ x: 0, y: 0, width: 1200, height: 800 });
  });

  it('never opens smaller than the minimum, nor larger than the display', () => {
    expect(placeWindow(state(100, 100, 200, 100), [laptop]).bounds).toEqual({
      x: 100,
      y: 100,
      width: 880,
      height: 560,
    });
    // Saved on the large monitor at its full size, now only the laptop's work area left of it.
    expect(placeWindow(state(0, 0, 2560, 1400), [laptop]).bounds).toEqual({ x: 0, y: 0, width: 1920, height: 1040 });
  });

  it('keeps the minimum on a display smaller than it', () => {
    const small = { x: 0, y: 0, width: 800, height: 500 };
    expect(placeWindow(state(0, 0), [small]).bounds).toEqual({ x: 0, y: 0, width: 880, height: 560 });
  });
});

describe('parseWindowState', () => {
  it('reads what writeWindowState writes', () => {
    expect(parseWindowState(JSON.stringify(state(-1920, 40, 1000, 700, true)))).toEqual(
      state(-1920, 40, 1000, 700, true),
    );
  });

  it.each([
    ['empty', ''],
    ['truncated', '{"bounds":{"x":1'],
    ['not JSON', 'window: big'],
    ['null', 'null'],
    ['an array', '[1,2,3,4]'],
    ['no maximized', '{"bounds":{"x":0,"y":0,"width":1000,"height":700}}'],
    ['strings for numbers', '{"bounds":{"x":"0","y":0,"width":1000,"height":700},"maximized":false}'],
    ['a zero width', '{"bounds":{"x":0,"y":0,"width":0,"height":700},"maximized":false}'],
    ['a negative height', '{"bounds":{"x":0,"y":0,"width":1000,"height":-700},"maximized":false}'],
    ['a fraction', '{"bounds":{"x":0.5,"y":0,"width":1000,"height":700},"maximized":false}'],
    ['a huge coordinate', '{"bounds":{"x":1e300,"y":0,"width":1000,"height":700},"maximized":false}'],
  ])('refuses %s', (_name, text) => {
    expect(parseWindowState(text)).toBeUndefined();
  });
});

describe('readWindowState and writeWindowState', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-window-state-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('round-trips through a file in a folder not yet made, leaving no temporary file', () => {
    const file = join(dir, 'user-data', 'window-state.json');
    expect(readWindowState(file)).toBeUndefined();
    writeWindowState(file, state(10, 20, 1000, 700, true));
    expect(readWindowState(file)).toEqual(state(10, 20, 1000, 700, true));
    expect(readdirSync(join(dir, 'user-data'))).toEqual(['window-state.json']);
  });

  it('reads garbage as no saved state, which opens the default window', () => {
    const file = join(dir, 'garbage.json');
    writeFileSync(file, '\u0000\u0000{not json');
    expect(readWindowState(file)).toBeUndefined();
    expect(placeWindow(readWindowState(file), [laptop])).toEqual({ bounds: undefined, maximized: false });
  });
});
