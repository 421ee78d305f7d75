import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';

// The main window's size, position and maximised state between launches, as GitHub Desktop keeps
// them. Pure functions over plain rectangles, so they are tested without Electron; window.ts wires
// them to the window and the screen.

/** A rectangle in screen coordinates, as Electron's `Rectangle`. */
export interface Bounds {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** What is saved: the window's normal (not maximised) bounds, and whether it was maximised. */
export interface WindowState {
  readonly bounds: Bounds;
  readonly maximized: boolean;
}

/** The smallest window the UI is laid out for; also the window's `minWidth` / `minHeight`. */
export const MIN_WINDOW_SIZE = { width: 880, height: 560 } as const;

/** The size of a first window, or of one whose saved place is gone; Electron centres it. */
export const DEFAULT_WINDOW_SIZE = { width: 1280, height: 820 } as const;

/**
 * How much of the window must lie on one display's work area to be restored there: enough to grab it
 * by its title bar. A sliver on a screen edge is no window the user can reach.
 */
const MIN_VISIBLE = { width: 160, height: 80 } as const;

/** Far beyond any desktop: a larger number is a corrupt file, not a place. */
const COORDINATE_LIMIT = 100_000;

const coordinate = z.number().int().min(-COORDINATE_LIMIT).max(COORDINATE_LIMIT);
const length = z.number().int().min(1).max(COORDINATE_LIMIT);
const windowStateSchema = z.object({
  bounds: z.object({ x: coordinate, y: coordinate, width: length, height: length }),
  maximized: z.boolean(),
});

/** The saved state in `text`, or undefined when it is not one (a truncated write, an edit by hand). */
export function parseWindowState(text: string): WindowState | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = windowStateSchema.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}

/** The state saved in `file`, or undefined when there is none or it cannot be read. */
export function readWindowState(file: string): WindowState | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  return parseWindowState(text);
}

/** Saves `state` to `file`, through a temporary file so a crash mid-write leaves the last state whole. */
export function writeWindowState(file: string, state: WindowState): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(state)}\n`);
  renameSync(temporary, file);
}

function overlap(a: Bounds, b: Bounds): { width: number; height: number } {
  return {
    width: Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)),
    height: Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)),
  };
}

/** Where the next window opens: the saved place, or undefined bounds (default size, centred). */
export interface WindowPlacement {
  readonly bounds: Bounds | undefined;
  readonly maximized: boolean;
}

/**
 * Where to open the window given the saved state and the displays' work areas now. The saved bounds
 * are kept only when enough of them lies on one work area (a monitor since removed, or a resolution
 * since lowered, would open it out of reach); then they are shrunk to that work area (never below the
 * minimum size) and moved onto it. Otherwise the window opens at its default size, centred, still
 * maximised if it was.
 */
export function placeWindow(saved: WindowState | undefined, workAreas: readonly Bounds[]): WindowPlacement {
  if (!saved) return { bounds: undefined, maximized: false };
  const { bounds } = saved;
  const area = workAreas.find((candidate) => {
    const shared = overlap(bounds, candidate);
    return (
      shared.width >= Math.min(MIN_VISIBLE.width, candidate.width) &&
      shared.height >= Math.min(MIN_VISIBLE.height, candidate.height)
    );
  });
  if (!area) return { bounds: undefined, maximized: saved.maximized };
  // Larger than its display (a lower resolution since): as large as the work area, but never below
  // the minimum, which a tiny display cannot help.
  const width = Math.max(Math.min(bounds.width, area.width), MIN_WINDOW_SIZE.width);
  const height = Math.max(Math.min(bounds.height, area.height), MIN_WINDOW_SIZE.height);
  // Moved wholly onto that work area where it fits, so its title bar and edges are within reach.
  const x = Math.min(Math.max(bounds.x, area.x), area.x + Math.max(0, area.width - width));
  const y = Math.min(Math.max(bounds.y, area.y), area.y + Math.max(0, area.height - height));
  return { bounds: { x, y, width, height }, maximized: saved.maximized };
}
