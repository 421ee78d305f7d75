import { randomBytes, randomUUID } from 'node:crypto';
import {
  closeSync,
  fchmodSync,
  ftruncateSync,
  linkSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { DataFolderInUseError, type Holder } from './data-folder-in-use.js';
import { formatHoldRecord, parseHoldRecord, type HoldRecord } from './hold-record.js';
import { isRunning, processStart } from './process-identity.js';

/** The hold file's name in the data folder. */
export const HOLD_FILE = 'gatehouse.lock';

/** How long a hold file may stay unreadable: its creator writes it in the instant after creating it. */
const WRITING_GRACE_MS = 2000;

/** Rounds of create, judge, clear a stale hold: more only when other starts keep changing the file. */
const ATTEMPTS = 5;

/** A server's exclusive hold on its data folder. */
export interface DataFolderHold {
  readonly file: string;
  /** Set when the hold was taken over from a server that did not give it back: the line to log. */
  readonly takeover?: string;
  /** Records where the servers listen, for the message a second start on the folder gets. */
  announce(addresses: { readonly gateway: string; readonly store: string }): void;
  /** Gives the folder back; again is a no-op. Also done when the process exits without it. */
  release(): void;
}

/** The holds this process has (by their record's id): a hold naming this process's id is stale unless listed. */
const heldHere = new Set<string>();

type Verdict = { readonly held: true; readonly holder: Holder } | { readonly held: false; readonly takeover: string };

/**
 * Takes the data folder for this process, or throws DataFolderInUseError naming the server that has it.
 * The hold file is created exclusively, so of two starts at once only one gets it. A hold whose
 * process is gone (killed, crashed, or its id now another program's) is taken over.
 */
export function holdDataFolder(dataDir: string): DataFolderHold {
  const file = join(dataDir, HOLD_FILE);
  let takeover: string | undefined;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const fd = createExclusive(file);
    if (fd !== undefined) return taken(file, fd, takeover);
    // Either read may find the file gone meanwhile: its server stopped, or another start cleared it.
    const text = readIfPresent(file);
    if (text === undefined) continue;
    const verdict = judge(dataDir, file, text);
    if (verdict === undefined) continue;
    if (verdict.held) throw new DataFolderInUseError(dataDir, file, verdict.holder);
    takeover = verdict.takeover;
    clearStale(file, text);
  }
  throw new DataFolderInUseError(dataDir, file, {});
}

function createExclusive(file: string): number | undefined {
  try {
    return openSync(file, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw error;
  }
}

function readIfPresent(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Whether the hold in `text` is still its server's, or what taking it over means. Undefined if the file went. */
function judge(dataDir: string, file: string, text: string): Verdict | undefined {
  const record = parseHoldRecord(text);
  if (!record) {
    let age: number;
    try {
      age = Date.now() - statSync(file).mtimeMs;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    if (age < WRITING_GRACE_MS) return { held: true, holder: {} };
    return { held: false, takeover: `took over the data folder ${dataDir}: its hold file ${file} named no server` };
  }
  const gone = (why: string): Verdict => ({
    held: false,
    takeover: `took over the data folder ${dataDir} from process ${record.pid}, which ${why}`,
  });
  // A server on another machine (a shared folder) cannot be looked up from here.
  if (record.host !== hostname()) return { held: true, holder: { record, unconfirmed: true } };
  // Copied along with the folder (cp -a, a backup restored) while its server ran: that server holds
  // the folder it was copied from, not this one. (Only on this machine: another one numbers devices
  // its own way.)
  const here = folderIdentity(dataDir);
  if (record.folder !== undefined && here !== undefined && record.folder !== here)
    return gone('holds the folder this one was copied from, not this copy');
  if (record.pid === process.pid) {
    if (heldHere.has(record.id)) return { held: true, holder: { record } };
    return gone('did not stop cleanly (an earlier process with the id this one has now)');
  }
  if (!isRunning(record.pid)) return gone('is no longer running (it did not stop cleanly)');
  const start = processStart(record.pid);
  if (record.process_start === null || start === undefined)
    return { held: true, holder: { record, unconfirmed: true } };
  if (start !== record.process_start)
    return gone('did not stop cleanly (its process id now belongs to another program)');
  return { held: true, holder: { record } };
}

/**
 * Removes the stale hold read as `text`. It is moved aside first and checked: when another start
 * took over between the read and the move, the hold moved is that start's live one, and it goes back.
 */
function clearStale(file: string, text: string): void {
  const aside = `${file}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    renameSync(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    if (readFileSync(aside, 'utf8') === text) return;
    try {
      linkSync(aside, file);
    } catch (error) {
      // Only a third start at the same instant could have created it since; the next round reads it.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  } finally {
    unlinkSync(aside);
  }
}

/** The folder's device and inode, which a copy does not share (undefined where they cannot be read). */
function folderIdentity(dataDir: string): string | undefined {
  try {
    const stats = statSync(dataDir, { bigint: true });
    return stats.ino === 0n ? undefined : `${stats.dev}:${stats.ino}`;
  } catch {
    return undefined;
  }
}

function taken(file: string, fd: number, takeover: string | undefined): DataFolderHold {
  const folder = folderIdentity(dirname(file));
  let record: HoldRecord = {
    id: randomUUID(),
    pid: process.pid,
    host: hostname(),
    process_start: processStart(process.pid) ?? null,
    started_at: new Date().toISOString(),
    gateway: null,
    store: null,
    ...(folder === undefined ? {} : { folder }),
  };
  let text = '';
  const write = (next: HoldRecord): void => {
    const nextText = formatHoldRecord(next);
    ftruncateSync(fd, 0);
    writeSync(fd, nextText, 0);
    record = next;
    text = nextText;
  };
  try {
    // The umask may have narrowed the create mode; files in the data folder are its owner's, 0600 exactly.
    fchmodSync(fd, 0o600);
    write(record);
  } catch (error) {
    closeSync(fd);
    unlinkSync(file);
    throw error;
  }
  heldHere.add(record.id);
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    process.removeListener('exit', release);
    heldHere.delete(record.id);
    closeSync(fd);
    // Only this hold is removed, never one another server wrote in its place.
    if (readIfPresent(file) === text) unlinkSync(file);
  };
  // However the process ends short of a kill, the next start finds the folder free.
  process.on('exit', release);
  return {
    file,
    takeover,
    announce: ({ gateway, store }) => {
      if (!released) write({ ...record, gateway, store });
    },
    release,
  };
}
