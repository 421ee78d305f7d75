import { configSchema } from './schema.js';
import {
  convertModelEntry,
  type DeploymentRates,
  envReference,
  isObject,
  type UnmappedKey,
} from './litellm-model-list.js';
import { convertSettings, reportGeneral, reportGuardrails, reportIncludes } from './litellm-settings.js';

/**
 * A LiteLLM proxy `config.yaml` as a Gatehouse configuration: what has an equivalent is converted,
 * every other key is reported by its path (never with its value), so nothing is dropped silently.
 */

export type { UnmappedKey } from './litellm-model-list.js';

type Json = Record<string, unknown>;

/** The top-level sections of a LiteLLM proxy config. */
export const LITELLM_SECTIONS: readonly string[] = [
  'model_list',
  'litellm_settings',
  'router_settings',
  'general_settings',
  'environment_variables',
];

/** The result of an import: a raw Gatehouse configuration (validated by the loader) and what was left out. */
export interface LiteLlmImport {
  readonly config: Json;
  readonly unmapped: readonly UnmappedKey[];
  /**
   * Keys converted into something that works differently in Gatehouse, one line each saying how
   * (`model_list[0].litellm_params.rpm: became limits.models.gpt-4o.rpm_limit ...`).
   */
  readonly notes: readonly string[];
  /** Deployments converted from `model_list`. */
  readonly deployments: number;
  /**
   * What makes the conversion unusable, named in the LiteLLM file's own terms (two entries with one
   * `model_info.id`); the start refuses such a file.
   */
  readonly conflicts: readonly string[];
  /** Words an issue about a converted deployment (`deployments[0].api_key_env ...`) in the file's own terms. */
  readonly inFileTerms: (issue: string) => string;
}

/** Where each converted deployment key came from in its `model_list` entry (`api_base` or `base_url` as written). */
const SOURCE_KEY: Readonly<Record<string, readonly string[]>> = {
  model: ['model_name'],
  id: ['model_info.id'],
  provider: ['litellm_params.model', 'litellm_params.custom_llm_provider'],
  upstream_model: ['litellm_params.model'],
  base_url: ['litellm_params.api_base', 'litellm_params.base_url'],
  api_key: ['litellm_params.api_key'],
  api_key_env: ['litellm_params.api_key'],
  api_version: ['litellm_params.api_version'],
  timeout_ms: ['litellm_params.timeout'],
  max_retries: ['litellm_params.max_retries'],
  weight: ['litellm_params.weight'],
};

const DEPLOYMENT_ISSUE = /^deployments\[(\d+)\](?:\.([a-z_]+))?/;

/**
 * An issue's `deployments[i].<key>` as the `model_list` entry and key it was converted from, the
 * converted name kept in brackets: entries left out shift the indexes, and the keys have other names.
 */
function issueInFileTerms(issue: string, origins: readonly number[], entries: readonly unknown[]): string {
  const match = DEPLOYMENT_ISSUE.exec(issue);
  const entry = match ? origins[Number(match[1])] : undefined;
  if (match === null || entry === undefined) return issue;
  const params = (entries[entry] as { litellm_params?: Record<string, unknown> } | undefined)?.litellm_params ?? {};
  const written = (path: string): boolean =>
    !path.startsWith('litellm_params.') || params[path.slice('litellm_params.'.length)] !== undefined;
  const candidates = match[2] === undefined ? [] : (SOURCE_KEY[match[2]] ?? []);
  const key = candidates.find(written) ?? candidates[0];
  const path = key === undefined ? `model_list[${entry}]` : `model_list[${entry}].${key}`;
  // An address the entry reads from a variable Gatehouse reads too (AZURE_API_BASE) is missing from
  // the environment, not from the file: name that variable, not only base_url.
  const env = key?.startsWith('litellm_params.')
    ? envReference(params[key.slice('litellm_params.'.length)])
    : undefined;
  const fromEnv =
    match[2] === 'base_url' && env !== undefined
      ? `; this entry reads its address from ${env}, which Gatehouse reads too: set ${env} in the environment Gatehouse starts in`
      : '';
  return `${path} (${match[0]} once converted)${issue.slice(match[0].length)}${fromEnv}`;
}

/** Whether a parsed file is a LiteLLM proxy config (it has at least one of LiteLLM's sections). */
export function isLiteLlmConfig(raw: Json): boolean {
  return Object.keys(raw).some((key) => LITELLM_SECTIONS.includes(key));
}

/** Whether a top-level key is Gatehouse's (either spelling, or a dotted `llm.allowed_models`). */
function isGatehouseKey(key: string): boolean {
  const head = key.split('.')[0] ?? key;
  return head in configSchema.shape || key === 'allowPassthroughKeys';
}

/** The file's LiteLLM and Gatehouse keys when it holds both, undefined otherwise. */
function mixedKeys(raw: Json): { readonly litellm: string[]; readonly gatehouse: string[] } | undefined {
  const keys = Object.keys(raw);
  const litellm = keys.filter((key) => LITELLM_SECTIONS.includes(key));
  const gatehouse = keys.filter(isGatehouseKey);
  return litellm.length > 0 && gatehouse.length > 0 ? { litellm, gatehouse } : undefined;
}

const RATE_MEASURES = [
  ['rpm', 'rpm_limit', 'requests'],
  ['tpm', 'tpm_limit', 'tokens'],
] as const;

/**
 * The deployments' `rpm` and `tpm` as `limits.models`, with a note per limit made. LiteLLM limits each
 * deployment; Gatehouse limits a model, across its deployments, for every caller at once. One
 * deployment's limit is the model's as it is. Several deployments each with one serve together, in
 * LiteLLM, up to the sum (a request goes to one with room left), so the model's limit is their sum:
 * the tightest would refuse what LiteLLM served. When some deployments of a model set none, LiteLLM
 * does not limit the model as a whole, and neither does the import: those limits are reported.
 */
function modelRateLimits(
  rated: ReadonlyArray<{ readonly model: string; readonly rates: DeploymentRates }>,
  unmapped: UnmappedKey[],
  notes: string[],
): Record<string, Json> {
  const byModel = new Map<string, DeploymentRates[]>();
  for (const { model, rates } of rated) byModel.set(model, [...(byModel.get(model) ?? []), rates]);
  const limits: Record<string, Json> = {};
  for (const [model, deployments] of byModel) {
    for (const [measure, limitKey, what] of RATE_MEASURES) {
      const set = deployments.flatMap((rates) => (rates[measure] === undefined ? [] : [rates[measure]]));
      if (set.length === 0) continue;
      const target = `limits.models.${model}.${limitKey}`;
      if (set.length < deployments.length) {
        const without = deployments.length - set.length;
        for (const { path } of set)
          unmapped.push({
            path,
            reason: `${without} of the ${deployments.length} deployments of ${model} set no ${measure}, so LiteLLM does not limit the model's ${what} as a whole; Gatehouse limits a model, not a deployment: set ${target} if it should be limited`,
          });
        continue;
      }
      const total = set.reduce((sum, rate) => sum + rate.value, 0);
      limits[model] = { ...limits[model], [limitKey]: total };
      notes.push(
        set.length === 1
          ? `${set[0]!.path}: became ${target}: ${total}, shared by every caller of ${model}`
          : `${set.map((rate) => rate.path).join(', ')}: summed into ${target}: ${total}, shared by every caller of ${model}; ` +
              `LiteLLM limits each deployment and Gatehouse the model, which spreads requests by weight rather than by what each deployment has left, so give the deployments weights in proportion to their ${measure} (LiteLLM picks by rpm when no weight is written)`,
      );
    }
  }
  return limits;
}

/** One line per key converted with a difference, as the loader and the command print them. */
function describeNotes(notes: readonly string[]): string[] {
  return notes.map((note) => `mapped: ${note}`);
}

/** One line per unmapped key, as the loader and the command print them. */
function describeUnmapped(unmapped: readonly UnmappedKey[]): string[] {
  return unmapped.map(({ path, reason }) => `not mapped: ${path}: ${reason}`);
}

/** Converts a parsed LiteLLM proxy config; the caller has refused files that mix in Gatehouse keys. */
export function importLiteLlmConfig(raw: Json): LiteLlmImport {
  const unmapped: UnmappedKey[] = [];
  const notes: string[] = [];
  const settings = convertSettings(raw, unmapped, notes);
  const deployments: Json[] = [];
  const pricing: Record<string, unknown> = {};
  const models = Array.isArray(raw.model_list) ? raw.model_list : [];
  const conflicts: string[] = [];
  const rated: Array<{ model: string; rates: DeploymentRates }> = [];
  const entryOfId = new Map<string, number>();
  /** The model_list index of each deployment, in order. */
  const origins: number[] = [];
  if (raw.model_list !== undefined && !Array.isArray(raw.model_list))
    unmapped.push({ path: 'model_list', reason: 'not a list' });
  models.forEach((entry, index) => {
    const converted = convertModelEntry(entry, index, unmapped, settings.timeoutMs);
    if (!converted) return;
    deployments.push(converted.deployment);
    origins.push(index);
    const id = converted.deployment.id;
    if (typeof id === 'string') {
      const first = entryOfId.get(id);
      if (first === undefined) entryOfId.set(id, index);
      else
        conflicts.push(
          `model_list[${index}].model_info.id '${id}' is already used by model_list[${first}]; deployment ids must be unique`,
        );
    }
    const model = converted.deployment.model as string;
    rated.push({ model, rates: converted.rates });
    if (!converted.price) return;
    const known = pricing[model];
    if (known === undefined) pricing[model] = converted.price;
    else if (JSON.stringify(known) !== JSON.stringify(converted.price))
      unmapped.push({
        path: `model_list[${index}].model_info`,
        reason: `prices differ from an earlier deployment of ${model}; Gatehouse prices per model`,
      });
  });
  const limits = modelRateLimits(rated, unmapped, notes);
  reportGeneral(raw, unmapped);
  if (isObject(raw.environment_variables)) {
    for (const name of Object.keys(raw.environment_variables))
      unmapped.push({ path: `environment_variables.${name}`, reason: 'set it in the environment Gatehouse starts in' });
  }
  for (const key of Object.keys(raw)) {
    if (key === 'include') reportIncludes(raw.include, unmapped);
    else if (key === 'guardrails') reportGuardrails(raw.guardrails, unmapped);
    else if (!LITELLM_SECTIONS.includes(key)) unmapped.push({ path: key, reason: 'no Gatehouse equivalent' });
    else if (key !== 'model_list' && !isObject(raw[key]) && raw[key] != null)
      unmapped.push({ path: key, reason: 'not a mapping' });
  }

  // Reported in the file's order of sections, so the lines read along with the file.
  const sections = Object.keys(raw);
  const rank = (path: string): number => sections.indexOf(path.split(/[.[]/)[0] ?? path);
  // The rate limits are reported once all entries are read: put back with their entry.
  const entry = (path: string): number => Number(/^model_list\[(\d+)\]/.exec(path)?.[1] ?? -1);
  unmapped.sort((a, b) => rank(a.path) - rank(b.path) || entry(a.path) - entry(b.path));

  const allowed = [...new Set(deployments.map((d) => d.model as string))];
  const config: Json = {};
  const llm: Json = {};
  if (allowed.length > 0) llm.allowed_models = allowed;
  if (Object.keys(settings.aliases).length > 0) llm.model_aliases = settings.aliases;
  if (Object.keys(llm).length > 0) config.llm = llm;
  if (deployments.length > 0) config.deployments = deployments;
  if (Object.keys(pricing).length > 0) config.pricing = pricing;
  if (Object.keys(limits).length > 0) config.limits = { models: limits };
  const gateway: Json = settings.maxRetries === undefined ? {} : { max_retries: settings.maxRetries };
  Object.assign(gateway, settings.cooldown);
  if (Object.keys(gateway).length > 0) config.gateway = gateway;
  if (settings.cache !== undefined) config.cache = settings.cache;
  return {
    config,
    unmapped,
    notes,
    deployments: deployments.length,
    conflicts,
    inFileTerms: (issue) => issueInFileTerms(issue, origins, models),
  };
}

/**
 * Why a converted file would serve none of what it was written for, or undefined: nothing converted
 * at all, or a `model_list` none of whose entries became a deployment (started, it would serve only
 * the demo models). The importer and a start from the file refuse it alike.
 */
function emptyConversion(raw: Json, imported: LiteLlmImport): string | undefined {
  const listed = Array.isArray(raw.model_list) && raw.model_list.length > 0;
  if (Object.keys(imported.config).length > 0 && !(listed && imported.deployments === 0)) return undefined;
  return listed ? 'could be converted into a deployment' : 'could be converted';
}

/** A LiteLLM proxy config converted for use, its lines for the user already worded. */
export interface LiteLlmConversion {
  readonly config: Json;
  /** `mapped: ...` lines: keys converted into something that works differently. */
  readonly notes: readonly string[];
  /** `not mapped: ...` lines: keys left out, each saying why. */
  readonly unmapped: readonly string[];
  readonly deployments: number;
  readonly inFileTerms: (issue: string) => string;
}

/** Why a LiteLLM file cannot be used; `nothingConverted` when it was read but none of it converts. */
export interface LiteLlmRefusal {
  readonly refused: string;
  readonly nothingConverted: boolean;
}

/**
 * The one conversion the loader and `npm run import:litellm` share, so that both refuse a file alike
 * and in the same words: a file mixing in Gatehouse keys (which should win is the user's call), two
 * entries with one id, or one none of whose models converts. `raw` is a LiteLLM config (`isLiteLlmConfig`).
 */
export function convertLiteLlm(raw: Json, file: string): LiteLlmConversion | LiteLlmRefusal {
  const mixed = mixedKeys(raw);
  if (mixed)
    return {
      refused:
        `${file} mixes a LiteLLM proxy config (${mixed.litellm.join(', ')}) with Gatehouse keys (${mixed.gatehouse.join(', ')}); ` +
        `keep one kind: move the Gatehouse keys out, convert the rest with \`npm run import:litellm -- ${file}\` and merge them back into its output`,
      nothingConverted: false,
    };
  const imported = importLiteLlmConfig(raw);
  if (imported.conflicts.length > 0)
    return { refused: `${file} (a LiteLLM proxy config): ${imported.conflicts.join('; ')}`, nothingConverted: false };
  const unmapped = describeUnmapped(imported.unmapped);
  const empty = emptyConversion(raw, imported);
  if (empty !== undefined)
    return {
      refused: `nothing in ${file} (a LiteLLM proxy config) ${empty}${unmapped.length > 0 ? `:\n  ${unmapped.join('\n  ')}` : ''}`,
      nothingConverted: true,
    };
  return {
    config: imported.config,
    notes: describeNotes(imported.notes),
    unmapped,
    deployments: imported.deployments,
    inFileTerms: imported.inFileTerms,
  };
}
