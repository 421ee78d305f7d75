import type { FastifyInstance } from 'fastify';
import { existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from './config/schema.js';
import { dataFolderProblem } from './config/data-folder-problem.js';
import { invalidConfiguration } from './config/load.js';
import { bearerSecretProblem, MIN_SECRET_LENGTH } from './config/bearer-secret.js';
import { uiAddresses } from './ui-addresses.js';
import { readTlsFiles, type TlsCredentials } from './config/tls-files.js';
import { makePrivateDir, resolveSecret, type ResolvedSecret } from './config/secrets.js';
import { holdDataFolder, type DataFolderHold } from './data-folder/hold.js';
import { openDatabase, type DatabaseHandle } from './db/connection.js';
import { buildGatewayApp } from './gateway/app.js';
import { buildStoreApp } from './store/app.js';
import { listenProblem } from './http/listen-problem.js';
import { networkWarnings } from './network-warnings.js';
import { RevisionEvents } from './store/engine/revision-events.js';
import { resolveStoreTokens } from './store/store-tokens.js';
import { GATEHOUSE_VERSION } from './version.js';

/** The running servers. */
export interface RunningServers {
  readonly gatewayUrl: string;
  readonly storeUrl: string;
  readonly uiUrl: string;
  /** Whether `uiUrl` answers: the built UI, turned off by `server.ui`, or not built yet (`npm run build`). */
  readonly ui: 'served' | 'off' | 'not built';
  readonly masterKey: ResolvedSecret;
  /** The full-access store token (absent when auth is disabled or only configured tokens exist). */
  readonly storeToken?: ResolvedSecret;
  readonly database: DatabaseHandle;
  readonly gateway: FastifyInstance;
  readonly store: FastifyInstance;
  /** The PEM certificate both services answer HTTPS with (`server.tls`); absent: they answer HTTP. */
  readonly tlsCertificate?: string;
  /** Stops accepting, lets requests in flight finish, then closes the database and gives the data folder back. */
  close(): Promise<void>;
  /**
   * Ends every connection at once, requests in flight included, so a `close()` that waits on them
   * finishes: each cut request is accounted as its client leaving, and the database still closes.
   */
  cutConnections(): void;
}

/** Options beyond the configuration (paths that differ between the desktop bundle and source). */
export interface StartOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly migrationsDir?: string;
  readonly uiDir?: string;
}

/** Finds the built renderer (`out/renderer`) above this module, if it has been built. */
export function findUiDir(start: string = dirname(fileURLToPath(import.meta.url))): string | undefined {
  for (let dir = start; ; dir = dirname(dir)) {
    const candidate = join(dir, 'out', 'renderer');
    if (existsSync(join(candidate, 'index.html'))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

function urlOf(app: FastifyInstance, scheme: 'http' | 'https'): string {
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('server is not listening on a TCP port');
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `${scheme}://${host}:${address.port}`;
}

/** What is wrong with `PROXY_MASTER_KEY`, when it is set and unusable, naming the variable. */
export function masterKeyIssue(env: NodeJS.ProcessEnv): string | undefined {
  const key = env.PROXY_MASTER_KEY;
  const problem = key ? bearerSecretProblem('the master key', key) : undefined;
  if (problem === undefined) return undefined;
  // A short key carried over from elsewhere (LiteLLM's examples use `sk-1234`) is easiest replaced by a generated one.
  const hint =
    key!.length < MIN_SECRET_LENGTH ? ' (or leave it unset: Gatehouse then generates one in its data folder)' : '';
  return `PROXY_MASTER_KEY: ${problem}${hint}`;
}

/** Starts the gateway and the store over one database; the desktop app and `npm run serve` both call this. */
export async function startServers(config: Config, options: StartOptions = {}): Promise<RunningServers> {
  const env = options.env ?? process.env;
  const dataDir = config.server.data_dir!;
  const databaseFile = join(dataDir, 'gatehouse.db');
  let masterKey: ResolvedSecret;
  let tokens: ReturnType<typeof resolveStoreTokens>;
  let database: DatabaseHandle;
  let hold: DataFolderHold | undefined;
  // The master key opens the whole admin API: held to the rules of the store's tokens, before the folder is touched.
  const masterKeyProblem = masterKeyIssue(env);
  if (masterKeyProblem) {
    throw invalidConfiguration([masterKeyProblem]);
  }
  const tls = tlsCredentials(config);
  const scheme = tls ? 'https' : 'http';
  const createdFolder = firstMissingFolder(dataDir);
  try {
    // The folder holds the database (provider keys in it) and the secrets: its owner's only.
    makePrivateDir(dataDir);
    // Before the database opens: a second server on it would share its rows but not what each keeps in
    // memory (key caches, revocations, limit counters, the response cache), so one folder, one server.
    hold = holdDataFolder(dataDir);
    masterKey = resolveSecret({
      envValue: env.PROXY_MASTER_KEY,
      dataDir,
      file: 'master.key',
      prefix: 'gk-master-',
      what: 'the master key',
    });
    tokens = resolveStoreTokens(config, env);
    database = openDatabase(databaseFile, options.migrationsDir);
  } catch (error) {
    hold?.release();
    removeFolderMadeBy(createdFolder);
    throw dataFolderProblem(error, dataDir, databaseFile);
  }
  const folderHold = hold;
  const { grants, primary } = tokens;
  const uiDir = options.uiDir ?? findUiDir();
  // New store revisions reach the gateway in-process (RAG collections follow store branches).
  const revisions = new RevisionEvents();
  let gatewayUrl = '';
  let storeUrl = '';
  const addresses = uiAddresses({
    gatewayUrl: () => gatewayUrl,
    storeUrl: () => storeUrl,
    allowedHosts: config.server.allowed_hosts,
    version: GATEHOUSE_VERSION,
  });
  let gateway: FastifyInstance | undefined;
  let store: FastifyInstance | undefined;
  try {
    // The gateway is built first: building it checks the configured deployments (ConfigError), and a
    // refused configuration should never have had a listener open.
    gateway = await buildGatewayApp({
      config,
      database,
      masterKey: masterKey.value,
      storeTokens: grants.map((grant) => grant.token),
      env,
      uiDir,
      uiBootstrap: addresses.bootstrap,
      revisions,
      tls,
    });
    if (folderHold.takeover) {
      gateway.log.warn({ data_dir: dataDir, hold_file: folderHold.file }, folderHold.takeover);
      // Usage rows wait that long in memory before their batch is written; a crash loses what waited.
      const window = gateway.gateway.recorder.flushIntervalMs;
      gateway.log.warn(
        { data_dir: dataDir, window_ms: window },
        `the previous server did not stop cleanly: usage rows of its last ~${window} ms of answered requests may be missing`,
      );
    }
    store = await buildStoreApp({
      config,
      database,
      tokens: grants,
      revisions,
      allowedOrigin: addresses.allowedOrigin,
      tls,
    });
    // Before listening: Node reads the interval of its timeout checks when the listener opens.
    gateway.connections.configure(config.server);
    store.connections.configure(config.server);
    const { host } = config.server;
    await store.listen({ host, port: config.server.store_port }).catch((error: unknown) => {
      throw listenProblem(error, 'store', host, config.server.store_port);
    });
    storeUrl = urlOf(store, scheme);
    await gateway.listen({ host, port: config.server.gateway_port }).catch((error: unknown) => {
      throw listenProblem(error, 'gateway', host, config.server.gateway_port);
    });
    gatewayUrl = urlOf(gateway, scheme);
    for (const warning of networkWarnings(config, storeUrl))
      (warning.service === 'store' ? store : gateway).log.warn({ host }, warning.message);
    folderHold.announce({ gateway: gatewayUrl, store: storeUrl });
  } catch (error) {
    await Promise.allSettled([gateway?.close(), store?.close()]);
    try {
      database.close();
    } finally {
      folderHold.release();
      removeFolderMadeBy(createdFolder);
    }
    throw error;
  }
  const ui = !config.server.ui
    ? 'off'
    : uiDir !== undefined && existsSync(join(uiDir, 'index.html'))
      ? 'served'
      : 'not built';
  const storeApp = store;
  const gatewayApp = gateway;
  let closing: Promise<void> | undefined;
  return {
    gatewayUrl,
    storeUrl: urlOf(storeApp, scheme),
    uiUrl: `${gatewayUrl}/ui/`,
    ui,
    masterKey,
    storeToken: primary,
    database,
    gateway: gatewayApp,
    store: storeApp,
    ...(tls && { tlsCertificate: tls.cert }),
    close: () => {
      closing ??= (async () => {
        await Promise.allSettled([gatewayApp.close(), storeApp.close()]);
        try {
          database.close();
        } finally {
          folderHold.release();
        }
      })();
      return closing;
    },
    cutConnections: () => {
      gatewayApp.server.closeAllConnections();
      storeApp.server.closeAllConnections();
    },
  };
}

/**
 * `server.tls` read, or undefined for HTTP. A configuration loaded from a file was checked already; one
 * built in code (the tests, the desktop app's port fallback) is checked here, naming the key.
 */
function tlsCredentials(config: Config): TlsCredentials | undefined {
  if (config.server.tls === undefined) return undefined;
  const reading = readTlsFiles(config.server.tls);
  if ('problems' in reading) throw invalidConfiguration(reading.problems);
  return reading.credentials;
}

/** The outermost folder of `dir` that does not exist yet (`dir` itself when only it is missing), or undefined. */
function firstMissingFolder(dir: string): string | undefined {
  let missing: string | undefined;
  for (let folder = dir; !existsSync(folder); folder = dirname(folder)) {
    missing = folder;
    if (dirname(folder) === folder) break;
  }
  return missing;
}

/**
 * Removes the folders a failed start made (a port in use, a refused configuration): a new, migrated
 * database and generated keys in a folder nobody chose to keep would be mistaken for a server's data
 * later. A folder that existed before the start is never touched.
 */
function removeFolderMadeBy(created: string | undefined): void {
  if (created === undefined) return;
  try {
    rmSync(created, { recursive: true, force: true });
  } catch {
    // Left behind rather than hiding why the start failed, which the caller is about to report.
  }
}
