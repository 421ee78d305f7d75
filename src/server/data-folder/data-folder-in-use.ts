import { hostname } from 'node:os';
import { DATA_DIR_SETTING } from '../config/data-dir.js';
import type { HoldRecord } from './hold-record.js';

/** Who holds a data folder, as far as its hold file tells. */
export interface Holder {
  /** Absent while the holder is still writing its hold file, in the instant after creating it. */
  readonly record?: HoldRecord;
  /**
   * The holder's process id runs, but nothing confirms it is the process that took the hold: it is on
   * another machine (a shared folder), or this system does not say when a process started.
   */
  readonly unconfirmed?: boolean;
}

/** Another Gatehouse server holds the data folder: its message names the folder, the holder and what to do. */
export class DataFolderInUseError extends Error {
  readonly code = 'EDATAFOLDERINUSE';

  constructor(
    readonly dataDir: string,
    readonly holdFile: string,
    readonly holder: Holder,
  ) {
    super(describeHolder(dataDir, holdFile, holder, START_WORDING));
    this.name = 'DataFolderInUseError';
  }
}

/** How a refusal names the folder and what to do: a start and a restore are told different things. */
export interface HolderWording {
  readonly setting: string;
  readonly remedy: string;
}

const START_WORDING: HolderWording = {
  setting: ` (${DATA_DIR_SETTING})`,
  remedy: 'stop that server first, or choose another folder for this one',
};

/** Who holds the folder and what to do, in `wording`. */
export function describeHolder(
  dataDir: string,
  holdFile: string,
  { record, unconfirmed }: Holder,
  wording: HolderWording,
): string {
  const folder = `the data folder ${dataDir}${wording.setting}`;
  const remedy = wording.remedy;
  if (!record) return `${folder} is being taken by another Gatehouse server starting right now: ${remedy}`;
  const where = record.host === hostname() ? '' : ` on ${record.host}`;
  const listening =
    record.gateway !== null && record.store !== null
      ? `gateway ${record.gateway}, store ${record.store}`
      : 'still starting';
  const escape = unconfirmed
    ? `; if no Gatehouse server runs as process ${record.pid}${where} any more, delete ${holdFile}`
    : '';
  return `${folder} is in use by another Gatehouse server, process ${record.pid}${where} (${listening}): ${remedy}${escape}`;
}
