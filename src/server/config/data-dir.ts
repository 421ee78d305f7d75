import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

/** The settings that choose the data folder, for messages that tell the user what to change. */
export const DATA_DIR_SETTING = 'GATEHOUSE_DATA_DIR or server.data_dir';

/** The OS's per-user application-data folder for Gatehouse (the same for the desktop app and `npm run serve`). */
export function defaultDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Gatehouse');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Gatehouse');
  // The XDG base directory spec: a relative value is invalid and ignored (it made a folder wherever the
  // server happened to start).
  const xdg = env.XDG_DATA_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.local', 'share'), 'gatehouse');
}

/**
 * The absolute folder a `data_dir` setting means: `~` is the home folder (no shell expands it in a
 * configuration file or an environment file), and a relative path is read from `base` (the
 * configuration file's folder, or the working directory for the environment), so the same file finds
 * the same database whatever folder the server is started from. A string, or the problem with it.
 */
export function resolveDataDir(
  value: string,
  base: string,
  home: string = homedir(),
): { readonly path: string } | { readonly problem: string; readonly names?: 'variable' } {
  // The home folder itself would be the data folder: its database, keys and lock among the user's files.
  if (value === '~' || value === '~/')
    return { problem: `'${value}' is your home folder itself: name a folder in it, such as ~/.gatehouse` };
  if (value.startsWith('~/')) return { path: join(home, value.slice(1)) };
  // No shell reads the file: `$HOME/x` would be a folder named `$HOME` beside it.
  if (/\$(\{?[A-Za-z_])/.test(value))
    return {
      problem: `'${value}': variables are not expanded here; write the path (~/ is your home folder)`,
      names: 'variable',
    };
  if (value.startsWith('~'))
    return { problem: `'${value}': only ~ (your own home folder) is understood; write the full path` };
  return { path: isAbsolute(value) ? resolve(value) : resolve(base, value) };
}
