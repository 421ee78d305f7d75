import { app } from 'electron';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** The folder in the data folder that holds Electron's profile (its cache, local storage, the window's place). */
export const DESKTOP_PROFILE_FOLDER = 'desktop';

/**
 * Makes `<dataDir>/desktop` Electron's user data folder, before the single-instance lock is asked
 * for: that lock lives in the user data folder, so one app runs per data folder, and another
 * folder's app (its own database, its own remembered ports) runs beside it, as headless servers do.
 * The UI's per-origin settings and the window's place then belong to that folder's app too, and on
 * every OS the profile sits in the same, named place (Electron's default put it beside the database
 * on macOS and Windows, whose data folder has the app's own name). Electron refuses a folder that
 * does not exist, so it is made first, owner-only as the data folder is.
 */
export function useDataFolderProfile(dataDir: string): string {
  const dir = join(dataDir, DESKTOP_PROFILE_FOLDER);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  app.setPath('userData', dir);
  return dir;
}
