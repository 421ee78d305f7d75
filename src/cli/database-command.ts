import { resolve } from 'node:path';
import { callersFolder, loadCallersConfig } from '../server/config/callers-folder.js';
import { ConfigError } from '../server/config/load.js';

/**
 * The arguments `npm run backup` and `npm run restore` share: one file, the data folder (by
 * `--config` as `npm run serve` reads it, by `--data-dir`, or as a server started here would find
 * it), `--force`, and `--with-keys` where the command takes it.
 */
export interface DatabaseCommand {
  /** The file named, read from the folder the command was typed in. */
  readonly file: string;
  readonly folder: string;
  /** How the folder was found, said before anything is done: another way than the server's is the mistake to catch. */
  readonly foundBy: string;
  readonly force: boolean;
  /** `--with-keys`, for the commands that take it: the backup is a folder holding the key files too. */
  readonly withKeys: boolean;
}

/** Exits the process: never returns. */
export type Fail = (message: string, code: number) => never;

/** Prints `<command>: <message>` on stderr and exits with `code`. */
export function failure(command: string): Fail {
  return (message, code) => {
    process.stderr.write(`${command}: ${message}\n`);
    process.exit(code);
  };
}

/**
 * Reads the arguments, or prints `help` and answers undefined for `-h`/`--help`. Bad arguments exit 2
 * naming them; `fileMissing` says what the one file is for when none is given.
 */
export function parseDatabaseCommand(
  command: string,
  args: readonly string[],
  text: { readonly usage: string; readonly help: string; readonly fileMissing: string },
  accepts: { readonly withKeys?: boolean } = {},
): DatabaseCommand | undefined {
  const fail: Fail = failure(command);
  let file: string | undefined;
  let dataDir: string | undefined;
  let configFile: string | undefined;
  let force = false;
  let withKeys = false;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '--force') force = true;
    else if (arg === '--with-keys' && accepts.withKeys === true) withKeys = true;
    else if (arg === '--data-dir') dataDir = args[++i] ?? fail(`--data-dir needs a folder\n${text.usage}`, 2);
    else if (arg === '--config' || arg.startsWith('--config=')) {
      // As npm run serve reads it, so a line copied from the serve line finds the same folder.
      const value = arg === '--config' ? args[++i] : arg.slice('--config='.length);
      if (value === undefined || value === '' || value.startsWith('-'))
        fail(`--config needs a file: --config gatehouse.yaml\n${text.usage}`, 2);
      if (configFile !== undefined) fail(`--config is given twice\n${text.usage}`, 2);
      configFile = value;
    } else if (arg === '--help' || arg === '-h') {
      process.stdout.write(text.help);
      return undefined;
    } else if (file === undefined && !arg.startsWith('-')) file = arg;
    else fail(`unexpected argument ${arg}\n${text.usage}`, 2);
  }
  if (file === undefined) fail(`${text.fileMissing}\n${text.usage}`, 2);
  if (dataDir !== undefined && configFile !== undefined)
    fail(`--config and --data-dir both name the data folder: give one\n${text.usage}`, 2);
  // Named from the folder the command was typed in, not the checkout npm runs the script in.
  const from = callersFolder();
  const { folder, foundBy } =
    dataDir === undefined
      ? serversDataDir(configFile, fail)
      : { folder: resolve(from, dataDir), foundBy: '--data-dir' };
  return { file: resolve(from, file), folder, foundBy, force, withKeys };
}

/** The data folder a server started from this environment (and `--config <configFile>`) would use, and where that came from. */
function serversDataDir(configFile: string | undefined, fail: Fail): { folder: string; foundBy: string } {
  try {
    const { config, source } = loadCallersConfig(configFile);
    const foundBy = process.env.GATEHOUSE_DATA_DIR ? 'GATEHOUSE_DATA_DIR' : `configuration from ${source}`;
    return { folder: config.server.data_dir!, foundBy };
  } catch (error) {
    if (error instanceof ConfigError) fail(`${error.message}\n(or name the folder with --data-dir)`, 2);
    throw error;
  }
}
