import { closeSync, fstatSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** The desktop app's log, in the data folder's `logs` folder: beside what it logs about, one per data folder. */
export const LOG_FILE_NAME = 'gatehouse.log';
export const LOGS_FOLDER = 'logs';
/** Size at which the file is rotated: `gatehouse.log` becomes `gatehouse.log.1`, which becomes `.2`. */
export const LOG_FILE_MAX_BYTES = 10 * 1024 * 1024;
/** Rotated files kept besides the current one; the oldest goes. */
export const ROTATED_LOG_FILES_KEPT = 2;

/** An append-only log file that rotates itself; pino writes to it as to any destination. */
export interface LogFile {
  readonly path: string;
  write(line: string): void;
}

export interface LogFileOptions {
  readonly maxBytes?: number;
  readonly kept?: number;
  /** Told once when the file cannot be written; the lines then go to stdout only, never stopping the app. */
  readonly onError?: (message: string) => void;
}

/**
 * Opens (creating it, owner-only) `<dataDir>/logs/gatehouse.log` for appending. Writes are synchronous,
 * as the servers' stdout lines are: a crash right after a warning still leaves it in the file, and
 * below `debug` the servers log a few lines per start and per error, never per request.
 */
export function openLogFile(dataDir: string, options: LogFileOptions = {}): LogFile {
  const maxBytes = options.maxBytes ?? LOG_FILE_MAX_BYTES;
  const kept = options.kept ?? ROTATED_LOG_FILES_KEPT;
  const dir = join(dataDir, LOGS_FOLDER);
  const path = join(dir, LOG_FILE_NAME);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  let fd: number | undefined = openSync(path, 'a', 0o600);
  let size = fstatSync(fd).size;

  const fail = (error: unknown): void => {
    if (fd !== undefined) closeSync(fd);
    fd = undefined;
    options.onError?.(`could not write the log file ${path}: ${(error as Error).message}; logging to stdout only`);
  };
  const rotate = (): void => {
    closeSync(fd!);
    fd = undefined;
    for (let i = kept; i >= 1; i--) {
      try {
        renameSync(i === 1 ? path : `${path}.${i - 1}`, `${path}.${i}`);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    fd = openSync(path, 'a', 0o600);
    size = 0;
  };

  return {
    path,
    write(line: string): void {
      if (fd === undefined) return;
      const bytes = Buffer.from(line, 'utf8');
      try {
        if (size > 0 && size + bytes.length > maxBytes) rotate();
        writeSync(fd!, bytes);
        size += bytes.length;
      } catch (error) {
        fail(error);
      }
    },
  };
}
