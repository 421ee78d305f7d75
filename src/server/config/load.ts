import { readFileSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import { parseDocument, parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { configSchema, type Config } from './schema.js';
import { describeConfigIssues } from './config-issues.js';
import { aliasTargetWarnings } from '../gateway/model-registry/alias-check.js';
import {
  deploymentListProblems,
  fileDeploymentSources,
  unsendableKeyProblem,
} from '../gateway/model-registry/deployment-list-check.js';
import { jsonProblem, yamlProblem } from './parse-error.js';
import { redirectHostWarnings, uncheckedKeyWarnings } from './sso-schema.js';
import { defaultDataDir, resolveDataDir } from './data-dir.js';
import { convertLiteLlm, isLiteLlmConfig } from './litellm-import.js';
import { resourceAttributesProblem, telemetryFromEnv } from '../gateway/telemetry/telemetry-config.js';
import { readTlsFiles, resolveTlsFiles, type TlsFiles } from './tls-files.js';
import { logFormatProblem } from '../http/logger.js';
import { envNameTypos } from './env-name-typos.js';
import { weakSecretWarnings } from './bearer-secret.js';

/** A configuration that cannot be used; the message names the file and the offending key. */
export class ConfigError extends Error {
  /** @param issues the offending keys with their problems (`<key path>: <problem>` or a sentence naming the key), when known. */
  constructor(
    message: string,
    readonly issues: readonly string[] = [],
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

/**
 * A configuration refused for `issues`, each on its own line. Checks that run after loading (the
 * gateway's deployment checks need the provider layer) leave `source` out; the caller that read the
 * file names it by calling this again with the error's issues.
 */
export function invalidConfiguration(issues: readonly string[], source?: string): ConfigError {
  return new ConfigError(`${heading(issues, source)}:\n${issues.map((issue) => `  ${issue}`).join('\n')}`, issues);
}

/** An issue that names an environment variable first (`GATEWAY_PORT must be ...`, `STORE_TOKEN: ...`). */
const fromEnvironment = (issue: string): boolean => /^[A-Z][A-Z0-9_]+[ :]/.test(issue);
/** An issue about a file of the data folder or elsewhere, named by its full path. */
const aboutAFile = (issue: string): boolean => /^(\/|[A-Za-z]:[\\/])/.test(issue);

/**
 * The line above the issues: the file is named only when one of them is in it; problems that are all
 * the environment's, or the data folder's, would send the reader to look for them in a file that is fine.
 */
function heading(issues: readonly string[], source: string | undefined): string {
  if (issues.length > 0 && issues.every(fromEnvironment)) return 'invalid environment';
  if (issues.length > 0 && issues.every((issue) => fromEnvironment(issue) || aboutAFile(issue))) return 'cannot start';
  return `invalid configuration${source === undefined ? '' : ` in ${source}`}`;
}

/** The camelCase spellings accepted in the `llm` section, mapped to their canonical snake_case keys. */
const LLM_SPELLINGS: Readonly<Record<string, string>> = {
  allowedModels: 'allowed_models',
  modelAliases: 'model_aliases',
  perModelMaxTokens: 'per_model_max_tokens',
  defaultEmbeddingModel: 'default_embedding_model',
};

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An empty YAML section (`model_aliases:` with only comments below) parses as null: treat it as absent. */
function dropNulls(raw: Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(raw)) {
    if (value === null) continue;
    out[key] = isObject(value) ? dropNulls(value) : value;
  }
  return out;
}

/**
 * Accepts both spellings, and dotted top-level keys (`llm.allowed_models: [...]`) as nested ones. A
 * setting written twice, in two spellings or two places, is refused naming both, and `source`, the
 * file they are in: one of them was silently lost (whichever came first).
 */
export function normaliseSpellings(input: Json, source?: string): Json {
  const raw = dropNulls(input);
  const out: Json = {};
  /** Where each setting was written, as the file spells it, by its canonical path. */
  const writtenAs = new Map<string, string>();
  const twice: string[] = [];
  const put = (section: Json, path: string, key: string, value: unknown, spelled: string): void => {
    const at = path === '' ? key : `${path}.${key}`;
    const earlier = writtenAs.get(at);
    if (earlier !== undefined) twice.push(`${earlier} and ${spelled} both set ${at}: keep one`);
    writtenAs.set(at, spelled);
    section[key] = value;
  };
  const canonical = (head: string, key: string): string =>
    head === 'llm'
      ? (LLM_SPELLINGS[key] ?? key)
      : head === 'responses' && key === 'defaultStore'
        ? 'default_store'
        : key;
  for (const [key, value] of Object.entries(raw)) {
    const [head, ...rest] = key.split('.');
    if (rest.length > 0 && head) {
      const section = isObject(out[head]) ? (out[head] as Json) : {};
      put(section, head, canonical(head, rest.join('.')), value, `${key} (one dotted key)`);
      out[head] = section;
    } else if (key === 'allowPassthroughKeys' || key === 'allow_passthrough_keys') {
      put(out, '', 'allow_passthrough_keys', value, key);
    } else if (isObject(value) && (key === 'llm' || key === 'responses' || isObject(out[key]))) {
      const section = isObject(out[key]) ? (out[key] as Json) : {};
      for (const [inner, innerValue] of Object.entries(value))
        put(section, key, canonical(key, inner), innerValue, `${inner} in ${key}`);
      out[key] = section;
    } else {
      out[key] = value;
    }
  }
  if (twice.length > 0) throw invalidConfiguration(twice, source);
  return out;
}

/** Keys an environment variable sets, so a bad value is blamed on the variable rather than the file. */
const ENV_KEYS: ReadonlyArray<readonly [variable: string, key: string]> = [
  ['GATEHOUSE_HOST', 'server.host'],
  ['GATEWAY_PORT', 'server.gateway_port'],
  ['STORE_PORT', 'server.store_port'],
  ['GATEHOUSE_DATA_DIR', 'server.data_dir'],
  ['GATEHOUSE_LOG_LEVEL', 'server.log_level'],
  ['OPENAI_API_KEY', 'providers.openai.api_key'],
  ['OPENAI_BASE_URL', 'providers.openai.base_url'],
  ['ANTHROPIC_API_KEY', 'providers.anthropic.api_key'],
  ['ANTHROPIC_BASE_URL', 'providers.anthropic.base_url'],
  // Read by telemetryFromEnv; OTEL_SDK_DISABLED and OTEL_TRACES_EXPORTER only turn tracing off.
  ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'telemetry.otlp_traces_endpoint'],
  ['OTEL_EXPORTER_OTLP_ENDPOINT', 'telemetry.otlp_endpoint'],
  ['OTEL_SERVICE_NAME', 'telemetry.service_name'],
];

/** `GATEHOUSE_LOG_LEVEL (server.log_level): ...` for a key whose value came from the environment. */
function blameEnvironment(lines: readonly string[], env: NodeJS.ProcessEnv): string[] {
  return lines.map((line) => {
    const set = ENV_KEYS.find(([variable, key]) => env[variable] && line.startsWith(`${key}:`));
    return set ? `${set[0]} (${line.slice(0, set[1].length)})${line.slice(set[1].length)}` : line;
  });
}

/** The sections the deployments' own checks read (see deploymentProblemsBeside). */
const DEPLOYMENT_SECTIONS = ['deployments', 'providers', 'gateway', 'store', 'sso'] as const;

/**
 * The deployments' own problems (an unknown provider, a duplicate id, no address, a key variable that
 * is not set), otherwise found only once the gateway starts, for a file refused for other mistakes:
 * reported with them when the sections those checks read are valid in themselves, so one round of
 * fixes clears the file.
 */
function deploymentProblemsBeside(raw: Json, env: NodeJS.ProcessEnv): string[] {
  const sections: Json = {};
  for (const key of DEPLOYMENT_SECTIONS) if (raw[key] !== undefined) sections[key] = raw[key];
  const parsed = configSchema.safeParse(sections);
  if (!parsed.success) return [];
  return deploymentListProblems(parsed.data.deployments, fileDeploymentSources(parsed.data, env)).problems;
}

/**
 * Everything wrong with a configuration, in one round: the schema's issues (when it failed), the
 * environment's values that could not be applied, and the deployments' and keys' own problems.
 */
function describeIssues(
  error: z.ZodError | undefined,
  raw: Json,
  source: string,
  env: NodeJS.ProcessEnv,
  inFileTerms: (issue: string) => string,
  envProblems: readonly string[],
): ConfigError {
  const issues = [
    ...envProblems,
    ...(error === undefined ? [] : blameEnvironment(describeConfigIssues(configSchema, error.issues), env)),
    ...providerKeyProblems(raw, env),
    ...deploymentProblemsBeside(raw, env),
  ].map(inFileTerms);
  return invalidConfiguration(issues, source);
}

/**
 * The absolute data folder: from GATEHOUSE_DATA_DIR or an override, read from the working directory;
 * from the file, read from the file's folder; else the OS's app-data folder.
 */
function dataDirOf(
  config: Config,
  options: { env: NodeJS.ProcessEnv; file?: string; overrides?: Json; source: string; cwd?: string },
): string {
  const value = config.server.data_dir;
  if (value === undefined) return defaultDataDir(options.env);
  const fromFile =
    !options.env.GATEHOUSE_DATA_DIR &&
    options.file !== undefined &&
    !(isObject(options.overrides?.server) && options.overrides.server.data_dir !== undefined);
  const resolved = resolveDataDir(value, fromFile ? dirname(resolve(options.file!)) : (options.cwd ?? process.cwd()));
  if ('path' in resolved) return resolved.path;
  const key = options.env.GATEHOUSE_DATA_DIR ? 'GATEHOUSE_DATA_DIR (server.data_dir)' : 'server.data_dir';
  // A file cannot name a variable, but GATEHOUSE_DATA_DIR set in a shell is expanded there; a value
  // that came from the variable already was not.
  const problem =
    resolved.names === 'variable' && !options.env.GATEHOUSE_DATA_DIR
      ? `${resolved.problem}, or set GATEHOUSE_DATA_DIR`
      : resolved.problem;
  throw invalidConfiguration([`${key}: ${problem}`], options.source);
}

/**
 * `server.tls` with its paths read from the file's folder (as the data folder's are), checked by reading
 * them: a start or a `--check` names a missing file or a key of another certificate.
 */
function tlsOf(
  config: Config,
  options: { file?: string; source: string; cwd?: string },
): { files: TlsFiles; warnings: readonly string[] } | undefined {
  if (config.server.tls === undefined) return undefined;
  const folder = options.file !== undefined ? dirname(resolve(options.file)) : (options.cwd ?? process.cwd());
  const files = resolveTlsFiles(config.server.tls, folder);
  const reading = readTlsFiles(files);
  if ('problems' in reading) throw invalidConfiguration(reading.problems, options.source);
  return { files, warnings: reading.warnings };
}

/** Where a JSON text names a key twice in one object (the YAML reader, a JSON superset, finds them), or undefined. */
function duplicateJsonKey(text: string): string | undefined {
  const error = parseDocument(text, { merge: true }).errors.find((problem) => problem.code === 'DUPLICATE_KEY');
  const at = error?.linePos?.[0];
  if (!at) return undefined;
  return `a key is named twice in one object at line ${at.line}, column ${at.col}; only the last would count`;
}

/** Reads and parses a YAML or JSON configuration file (a mapping at the top level). */
/**
 * The file as UTF-8, or a ConfigError saying what it is instead: read leniently, a Latin-1 `é` would
 * become U+FFFD inside a model name, and UTF-16 would fail as "not a mapping of keys".
 */
function utf8Text(bytes: Buffer, path: string): string {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
    throw new ConfigError(`cannot read configuration file ${path}: it is UTF-16; save it as UTF-8`);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const at = firstInvalidUtf8(bytes);
    const line = bytes.subarray(0, at).toString('latin1').split('\n').length;
    throw new ConfigError(
      `cannot read configuration file ${path}: it is not UTF-8 (line ${line}, byte 0x${bytes[at]!.toString(16)}); save it as UTF-8`,
    );
  }
}

/** The offset of the first byte that does not start or continue a well-formed UTF-8 character. */
function firstInvalidUtf8(bytes: Buffer): number {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for (let at = 0; at < bytes.length; at += 1) {
    try {
      decoder.decode(bytes.subarray(at, at + 1), { stream: true });
    } catch {
      return sequenceStart(bytes, at);
    }
  }
  return bytes.length - 1;
}

/**
 * Where the sequence that failed at `at` began: a byte that continues nothing is its own start; one
 * that breaks off a sequence (a Latin-1 `é` taken for the lead of three bytes) names that lead.
 */
function sequenceStart(bytes: Buffer, at: number): number {
  const continuation = (byte: number): boolean => byte >= 0x80 && byte < 0xc0;
  if (continuation(bytes[at]!)) return at;
  for (let back = at - 1; back >= Math.max(0, at - 3); back -= 1) if (bytes[back]! >= 0xc0) return back;
  return at;
}

export function readConfigFile(path: string): Json {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw new ConfigError(`cannot read configuration file ${path}: ${(error as Error).message}`);
  }
  // Without a byte-order mark some editors write first, which JSON.parse would call a bad token.
  const text = utf8Text(bytes, path).replace(/^\uFEFF/, '');
  const json = extname(path) === '.json';
  let parsed: unknown;
  try {
    // Merge keys (`<<: *defaults`), as LiteLLM's reader and most YAML tools apply them.
    parsed = json ? JSON.parse(text) : parseYaml(text, { merge: true });
  } catch (error) {
    const problem = json ? jsonProblem(text) : yamlProblem(error as Error);
    throw new ConfigError(`cannot parse configuration file ${path}: ${problem}`);
  }
  if (json) {
    // JSON.parse keeps the last of two keys of one object without a word, where the YAML reader refuses them.
    const duplicate = duplicateJsonKey(text);
    if (duplicate) throw new ConfigError(`cannot parse configuration file ${path}: ${duplicate}`);
  }
  if (parsed == null) return {};
  if (!isObject(parsed))
    throw new ConfigError(`cannot parse configuration file ${path}: the top level must be a mapping of keys`);
  return parsed;
}

/** A port variable's value, or what is wrong with it (`GATEWAY_PORT must be ...`); nothing when unset. */
function envPort(env: NodeJS.ProcessEnv, name: string): { readonly port?: number; readonly problem?: string } {
  const value = env[name];
  if (value === undefined || value === '') return {};
  if (!/^\d+$/.test(value) || Number(value) > 65535)
    return { problem: `${name} must be a port number from 0 to 65535, got "${value}"` };
  return { port: Number(value) };
}

/**
 * Environment values that override the file (ports, host, data directory, log level, provider keys and
 * URLs), and the problems of those that cannot be used, reported with the file's own.
 */
function applyEnv(raw: Json, env: NodeJS.ProcessEnv): { readonly raw: Json; readonly problems: string[] } {
  const server: Json = { ...(isObject(raw.server) ? raw.server : {}) };
  const problems: string[] = [];
  for (const [variable, key] of [
    ['GATEWAY_PORT', 'gateway_port'],
    ['STORE_PORT', 'store_port'],
  ] as const) {
    const { port, problem } = envPort(env, variable);
    if (problem !== undefined) problems.push(problem);
    if (port !== undefined) server[key] = port;
  }
  // Read by the logger, which has no configuration to refuse from.
  const logFormat = logFormatProblem(env);
  if (logFormat !== undefined) problems.push(logFormat);
  if (env.GATEHOUSE_HOST) server.host = env.GATEHOUSE_HOST;
  if (env.GATEHOUSE_DATA_DIR) server.data_dir = env.GATEHOUSE_DATA_DIR;
  if (env.GATEHOUSE_LOG_LEVEL) server.log_level = env.GATEHOUSE_LOG_LEVEL;

  const providers: Json = { ...(isObject(raw.providers) ? raw.providers : {}) };
  for (const [name, prefix] of [
    ['openai', 'OPENAI'],
    ['anthropic', 'ANTHROPIC'],
  ] as const) {
    const current: Json = { ...(isObject(providers[name]) ? (providers[name] as Json) : {}) };
    if (env[`${prefix}_API_KEY`]) current.api_key = env[`${prefix}_API_KEY`];
    if (env[`${prefix}_BASE_URL`]) current.base_url = env[`${prefix}_BASE_URL`];
    if (Object.keys(current).length > 0) providers[name] = current;
  }
  const telemetry = telemetryFromEnv(isObject(raw.telemetry) ? raw.telemetry : {}, env);
  return { raw: { ...raw, server, providers, ...(telemetry ? { telemetry } : {}) }, problems };
}

/**
 * Provider-wide keys (`providers.<name>.api_key`, or OPENAI_API_KEY and ANTHROPIC_API_KEY) that could
 * not be sent, blamed on the variable when one set them: every call would otherwise fail before it left.
 */
function providerKeyProblems(raw: Json, env: NodeJS.ProcessEnv): string[] {
  const providers = isObject(raw.providers) ? raw.providers : {};
  const problems: string[] = [];
  for (const [name, provider] of Object.entries(providers)) {
    const key = isObject(provider) ? provider.api_key : undefined;
    const problem = typeof key === 'string' ? unsendableKeyProblem(key) : undefined;
    if (problem !== undefined) problems.push(`providers.${name}.api_key: has ${problem}`);
  }
  return blameEnvironment(problems, env);
}

/** Where the configuration came from, for messages. */
export interface LoadedConfig {
  readonly config: Config;
  readonly source: string;
  /** Lines for the user that do not stop the start (LiteLLM keys that were not converted). */
  readonly warnings: readonly string[];
  /** An issue found later (the deployments' checks at start) in the file's own terms. */
  readonly inFileTerms: (issue: string) => string;
}

/**
 * A LiteLLM proxy config converted to Gatehouse keys, with one warning per key left out; any other
 * file as it is. A file the conversion refuses (keys of both kinds, say) stops the start.
 */
function fromLiteLlm(
  raw: Json,
  file: string,
): { raw: Json; warnings: string[]; source: string; inFileTerms: (issue: string) => string } {
  if (!isLiteLlmConfig(raw)) return { raw, warnings: [], source: file, inFileTerms: asWritten };
  const converted = convertLiteLlm(raw, file);
  if ('refused' in converted) throw new ConfigError(converted.refused);
  return {
    raw: converted.config,
    warnings: [...converted.notes, ...converted.unmapped],
    source: `${file} (a LiteLLM proxy config, converted)`,
    inFileTerms: converted.inFileTerms,
  };
}

const asWritten = (issue: string): string => issue;

/** Loads the file named by `GATEHOUSE_CONFIG` (if any), applies environment overrides, and validates. */
export function loadConfig(
  options: {
    env?: NodeJS.ProcessEnv;
    file?: string;
    overrides?: Json;
    /** The folder a relative `GATEHOUSE_DATA_DIR` is taken from (the caller's, under npm). */
    cwd?: string;
  } = {},
): LoadedConfig {
  const env = options.env ?? process.env;
  const file = options.file ?? env.GATEHOUSE_CONFIG;
  const read = file ? fromLiteLlm(readConfigFile(file), file) : undefined;
  const source = read?.source ?? 'defaults and environment';
  const { raw, problems: envProblems } = applyEnv(
    normaliseSpellings({ ...(read?.raw ?? {}), ...(options.overrides ?? {}) }, source),
    env,
  );
  const result = configSchema.safeParse(raw, { reportInput: true });
  const inFileTerms = read?.inFileTerms ?? asWritten;
  if (!result.success) throw describeIssues(result.error, raw, source, env, inFileTerms, envProblems);
  if (envProblems.length > 0 || providerKeyProblems(raw, env).length > 0)
    throw describeIssues(undefined, raw, source, env, inFileTerms, envProblems);
  const config = result.data;
  const dataDir = dataDirOf(config, { env, file, overrides: options.overrides, source, cwd: options.cwd });
  const tls = tlsOf(config, { file, source, cwd: options.cwd });
  const waiting = aliasTargetWarnings(config.llm);
  const unreadAttributes = resourceAttributesProblem(env);
  // A budget smaller than a chunk takes only the short ones (a document's last piece): most requests
  // would get no context, with nothing to say why.
  const smallBudget =
    config.rag.max_context_chars < config.rag.chunk_size
      ? [
          `rag.max_context_chars (${config.rag.max_context_chars}) is smaller than rag.chunk_size (${config.rag.chunk_size}): only chunks shorter than the budget can be given to a request; raise it to at least the chunk size`,
        ]
      : [];
  return {
    config: { ...config, server: { ...config.server, data_dir: dataDir, ...(tls && { tls: tls.files }) } },
    source,
    warnings: [
      ...(read?.warnings ?? []),
      ...(tls?.warnings ?? []),
      ...waiting.map(inFileTerms),
      ...(unreadAttributes === undefined ? [] : [unreadAttributes]),
      ...smallBudget.map(inFileTerms),
      ...redirectHostWarnings(config.sso, config.server.allowed_hosts),
      ...uncheckedKeyWarnings(config.sso),
      ...envNameTypos(env, read?.raw),
      ...weakSecretWarnings(config, env),
    ],
    inFileTerms,
  };
}
