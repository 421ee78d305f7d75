import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadCallersConfig } from '../server/config/callers-folder.js';
import type { LoadedConfig } from '../server/config/load.js';
import { DesktopStartRefusal } from './start-refusal.js';

/**
 * The configuration as `npm run serve` reads it: a relative `GATEHOUSE_CONFIG` or
 * `GATEHOUSE_DATA_DIR` is taken from the folder `npm start` was typed in (INIT_CWD), not from the
 * package folder npm runs Electron in, so both modes find the same file and the same database.
 */
export function loadDesktopConfig(env: NodeJS.ProcessEnv = process.env): LoadedConfig {
  return loadCallersConfig(undefined, env);
}

/**
 * Refuses a start whose window would show no UI: the window is nothing but the page the gateway
 * serves at /ui/, so without it the user would get a bare 404 or 503 page and no way forward.
 */
export function requireUi(loaded: LoadedConfig, uiDir: string): void {
  if (!loaded.config.server.ui)
    throw new DesktopStartRefusal(
      `server.ui is false in ${loaded.source}: the desktop window shows the UI the gateway serves, so it needs server.ui: true (or the key removed); to run without the UI, use npm run serve`,
    );
  if (!existsSync(join(uiDir, 'index.html')))
    throw new DesktopStartRefusal(
      `the UI is not built (${uiDir} has no index.html): run npm run build (npm start builds it), then start again`,
    );
}
