import { existsSync } from 'node:fs';
import { loadCallersConfig } from '../server/config/callers-folder.js';
import { DataFolderInUseError } from '../server/data-folder/data-folder-in-use.js';
import { holdDataFolder } from '../server/data-folder/hold.js';
import { localUiUrl } from '../server/ui-addresses.js';

// Loaded by scripts/start.mjs (through tsx) before it builds: imports nothing of Electron.

/** What `npm start` says about the data folder before it builds: a reason to stop, or a line to pass on. */
export interface DataFolderCheck {
  /** A Gatehouse server already has the folder: said, and the start stops there. */
  readonly running?: string;
  /** A stale hold was cleared (the server's takeover line, which its own start will no longer find to say). */
  readonly takeover?: string;
}

/**
 * Whether a Gatehouse server already has the data folder this start would use: building first would
 * rewrite `out/` under that server, whose UI answers 503 meanwhile. Nothing to say when the folder is
 * free, or when the configuration cannot be read (the start itself then says why, in its own words).
 */
export function checkDataFolder(configFile: string | null, env: NodeJS.ProcessEnv = process.env): DataFolderCheck {
  let dataDir: string;
  let ui: boolean;
  try {
    const { config } = loadCallersConfig(configFile ?? undefined, env);
    dataDir = config.server.data_dir!;
    ui = config.server.ui;
  } catch {
    return {};
  }
  // A folder that does not exist yet has no server.
  if (!existsSync(dataDir)) return {};
  try {
    // The server's own check, so both judge a hold alike (a stale one is cleared as the server would);
    // given back at once, for the start that follows.
    const hold = holdDataFolder(dataDir);
    hold.release();
    return hold.takeover === undefined ? {} : { takeover: hold.takeover };
  } catch (error) {
    if (!(error instanceof DataFolderInUseError)) return {};
    const record = error.holder.record;
    if (!record) return { running: `already running (a Gatehouse server is starting on the data folder ${dataDir})` };
    const where = !record.gateway
      ? 'still starting'
      : ui
        ? `UI at ${localUiUrl(`${record.gateway}/ui/`)}`
        : `gateway ${record.gateway}, store ${record.store}`;
    return { running: `already running (process ${record.pid}, ${where}; data folder ${dataDir})` };
  }
}
