import { homedir } from 'node:os';
import { join } from 'node:path';

/** The OS's per-user application-data folder for Gatehouse (the same for the desktop app and `npm run serve`). */
export function defaultDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Gatehouse');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Gatehouse');
  return join(env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'gatehouse');
}
