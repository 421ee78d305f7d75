import { ConfigError } from '../server/config/load.js';
import { DataFolderInUseError } from '../server/data-folder/data-folder-in-use.js';

/**
 * The exit status of a start the app refused and has explained (EX_CONFIG of sysexits): `npm start`
 * (scripts/launch.mjs, which holds the same number) takes it as final instead of starting headless,
 * which would only refuse again with the same words. Electron failing on its own never exits with it.
 */
export const START_REFUSED_EXIT_CODE = 78;

/** A start the desktop app refuses for a reason of its own (the UI it would show is off or not built). */
export class DesktopStartRefusal extends Error {
  override readonly name = 'DesktopStartRefusal';
}

/** The codes a refused listen keeps (src/server/http/listen-problem.ts): an address the settings chose. */
const LISTEN_CODES = new Set(['EADDRINUSE', 'EACCES', 'EADDRNOTAVAIL', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME']);

/**
 * Whether a failed start is a refusal the headless server would repeat word for word (configuration,
 * data folder held, address unusable); anything else (a native module Electron cannot load, say)
 * may well work headless, so `npm start` still falls back for it.
 */
export function isStartRefusal(error: unknown): boolean {
  if (error instanceof ConfigError || error instanceof DataFolderInUseError || error instanceof DesktopStartRefusal)
    return true;
  const { code, cause } = error as NodeJS.ErrnoException;
  return cause !== undefined && code !== undefined && LISTEN_CODES.has(code);
}
