import { isDeepStrictEqual } from 'node:util';
import { invalidConfiguration } from '../../config/load.js';
import { ownSecretVariables } from '../../config/own-secret-variables.js';
import type { Config, DeploymentConfig } from '../../config/schema.js';
import type {
  DeploymentDefaults,
  DeploymentInput,
  ModelSettings,
  ModelSettingsUpdate,
} from '../../../shared/gateway-api.js';
import { aliasProblem } from './alias-check.js';
import { modelSettingIssues } from './model-settings-check.js';
import { removalProblem, removedModels, withoutRemovedCaps } from './model-removal.js';
import { GatewayError } from '../gateway-error.js';
import { policyVersion } from './policy-version.js';
import { implicitDeployment, mayReadKeyVariable, resolveDeployments, type DeploymentSources } from './deployment.js';
import { deploymentListProblems, fileDeploymentSources } from './deployment-list-check.js';
import type { SettingsRepository } from './settings.repository.js';
import type { ModelFirstSeenRepository } from './model-first-seen.repository.js';
import { withUnsetKeyVariable } from './unserved-models.js';
import { DEFAULT_TIMEOUT_MS, inferProvider } from '../providers/index.js';
import type { Deployment } from '../providers/types.js';

/** An entry of `GET /v1/models`. */
export interface ModelObject {
  readonly id: string;
  readonly object: 'model';
  readonly created: number;
  readonly owned_by: string;
}

/** Where a setting in force comes from. */
export interface SettingSource {
  readonly source: 'config' | 'database';
  readonly updatedAt: number | null;
}

/** Everything routing needs, compiled once per change and swapped whole (readers never see half an update). */
interface Snapshot {
  readonly settings: ModelSettings;
  readonly settingsSource: SettingSource;
  /** Whether the saved settings carry prices (else the file's are in force, whatever the source). */
  readonly pricingSaved: boolean;
  readonly deploymentInputs: ReadonlyArray<DeploymentConfig | DeploymentInput>;
  readonly deploymentsSource: SettingSource;
  readonly allowed: ReadonlySet<string>;
  readonly aliases: ReadonlyMap<string, string>;
  readonly caps: ReadonlyMap<string, number>;
  readonly deployments: readonly Deployment[];
  readonly byModel: ReadonlyMap<string, readonly Deployment[]>;
  /** Derived deployments of allowed models without configured ones, built on first use. */
  readonly implicit: Map<string, readonly Deployment[]>;
  readonly modelList: { readonly object: 'list'; readonly data: readonly ModelObject[] };
  /** The hash of the routing and policy settings in force. */
  readonly policyVersion: string;
}

/**
 * Model settings as saved through the admin API. Saves from before prices were settings have none: the
 * file's `pricing` is in force for them.
 */
type SavedModelSettings = Omit<ModelSettings, 'pricing'> & { readonly pricing?: ModelSettings['pricing'] };

/** The result of resolving a requested model name. */
export type ModelResolution =
  | { readonly ok: true; readonly model: string; readonly aliasOf?: string }
  | { readonly ok: false; readonly model: string };

/** Options of the registry. */
export interface ModelRegistryOptions {
  readonly config: Config;
  readonly repository: SettingsRepository;
  /** Where the first-seen times of model names are kept. */
  readonly firstSeen: ModelFirstSeenRepository;
  readonly env?: NodeJS.ProcessEnv;
  readonly now?: () => number;
}

/** The variables a list set through the admin API may read keys from: those the file's deployments name, and gateway.key_variables. */
function apiKeyVariables(config: Config): ReadonlySet<string> {
  const named = config.deployments.flatMap((deployment) => (deployment.api_key_env ? [deployment.api_key_env] : []));
  return new Set([...named, ...config.gateway.key_variables]);
}

/**
 * Allowed models, aliases, caps and deployments: the configuration file's values unless the admin API
 * stored an override, which applies from the next request on and survives restarts.
 */
export class ModelRegistry {
  private snapshot: Snapshot;
  private readonly now: () => number;
  private readonly firstSeen: ModelFirstSeenRepository;
  private readonly ownSecrets: ReadonlyMap<string, string>;
  private readonly apiKeyVariables: ReadonlySet<string>;
  private readonly settingsListeners: Array<() => void> = [];

  /** Throws ConfigError when the configuration file lists deployments the gateway could not route as written. */
  constructor(private readonly options: ModelRegistryOptions) {
    this.now = options.now ?? Date.now;
    this.firstSeen = options.firstSeen;
    this.ownSecrets = ownSecretVariables(options.config);
    this.apiKeyVariables = apiKeyVariables(options.config);
    // Checked even while the admin API's list is in force: a reset would bring the file's back.
    const { problems } = deploymentListProblems(options.config.deployments, this.sources());
    if (problems.length > 0) throw invalidConfiguration(problems);
    this.snapshot = this.compile();
  }

  /** Alias rewrite, then the allow-list: the target must be allowed, the alias itself need not be. */
  resolve(requested: string): ModelResolution {
    const snap = this.snapshot;
    const target = snap.aliases.get(requested);
    const model = target ?? requested;
    if (!snap.allowed.has(model)) return { ok: false, model };
    return target === undefined ? { ok: true, model } : { ok: true, model, aliasOf: requested };
  }

  /** The alias target of a name, or the name itself. */
  rewriteAlias(requested: string): string {
    return this.snapshot.aliases.get(requested) ?? requested;
  }

  /** True when the canonical name is in the allow-list. */
  isAllowed(model: string): boolean {
    return this.snapshot.allowed.has(model);
  }

  /** The max_tokens cap of a model, if one is set. */
  maxTokensCap(model: string): number | undefined {
    return this.snapshot.caps.get(model);
  }

  /** The configured default for embeddings without a model. */
  defaultEmbeddingModel(): string | undefined {
    return this.snapshot.settings.default_embedding_model ?? undefined;
  }

  /** The deployments serving a model: configured ones, else one derived from the name (none if no provider fits). */
  deploymentsFor(model: string): readonly Deployment[] {
    const snap = this.snapshot;
    const explicit = snap.byModel.get(model);
    if (explicit) return explicit;
    const cached = snap.implicit.get(model);
    if (cached) return cached;
    const provider = this.providerOf(model, snap);
    const sources = this.sources();
    const derived = provider === undefined ? [] : [implicitDeployment(model, provider, sources)];
    // Only allowed names are remembered, so arbitrary passthrough names cannot grow the map; they are
    // the ones marked when no key reaches them, once here rather than at every request.
    if (!snap.allowed.has(model)) return derived;
    const marked = derived.map((deployment) => withUnsetKeyVariable(deployment, sources.env));
    snap.implicit.set(model, marked);
    return marked;
  }

  /** The provider a model routes to, if one can be inferred. */
  providerFor(model: string): string | undefined {
    return this.providerOf(model, this.snapshot);
  }

  /** The hash of the routing and policy settings in force (`X-Gateway-Policy-Version`). */
  policyVersion(): string {
    return this.snapshot.policyVersion;
  }

  /** The `GET /v1/models` body (canonical names only, never aliases), precomputed. */
  modelList(): Snapshot['modelList'] {
    return this.snapshot.modelList;
  }

  /** The model settings in force. */
  settings(): ModelSettings & SettingSource {
    return { ...this.snapshot.settings, ...this.snapshot.settingsSource };
  }

  /** Calls `listener` after every change of the model settings in force (a save or a reset). */
  whenSettingsChange(listener: () => void): void {
    this.settingsListeners.push(listener);
  }

  /** Every configured deployment, resolved. */
  deployments(): readonly Deployment[] {
    return this.snapshot.deployments;
  }

  /**
   * The saved list's deployments whose `api_key_env` may not be read (the startup configuration no
   * longer allows the variable), each worded for the log at start: their calls go without that key.
   */
  unreadKeyVariables(): string[] {
    if (this.snapshot.deploymentsSource.source !== 'database') return [];
    const sources = this.sources(true);
    return this.snapshot.deploymentInputs.flatMap((input, index) => {
      const variable = input.api_key_env;
      if (variable === undefined || input.api_key || mayReadKeyVariable(variable, sources)) return [];
      const id = this.snapshot.deployments[index]?.id ?? input.model;
      return [
        `deployment '${id}' (saved through PUT /internal/deployments): api_key_env ${variable} is not a variable the admin API may read, so its calls go without that key: list it in gateway.key_variables of the startup configuration, or save the deployment with api_key`,
      ];
    });
  }

  /** Where the deployments in force come from. */
  deploymentsSource(): SettingSource {
    return this.snapshot.deploymentsSource;
  }

  /** What a deployment that sets no `timeout_ms` or `max_retries` of its own gets. */
  deploymentDefaults(): DeploymentDefaults {
    return { timeout_ms: DEFAULT_TIMEOUT_MS, max_retries: this.options.config.gateway.max_retries };
  }

  /** Every deployment that can receive traffic: configured ones and those derived for allowed models. */
  routableDeployments(): Deployment[] {
    const out = [...this.snapshot.deployments];
    for (const model of this.snapshot.settings.allowed_models) {
      if (!this.snapshot.byModel.has(model)) out.push(...this.deploymentsFor(model));
    }
    return out;
  }

  /**
   * Changes model settings (omitted fields keep their value; `reset` returns to the configuration
   * file). Returns whether anything changed: a save of the values in force writes nothing, so settings
   * still read from the file stay so.
   */
  updateSettings(update: ModelSettingsUpdate): boolean {
    const { repository } = this.options;
    if (update.reset) {
      if (this.snapshot.settingsSource.source === 'config') return false;
      repository.delete('models');
    } else {
      const current = this.snapshot.settings;
      const allowedModels = dedupe(update.allowed_models ?? current.allowed_models);
      const removed = removedModels(current.allowed_models, allowedModels);
      const upstreamModels = new Set(this.snapshot.deployments.map((deployment) => deployment.upstreamModel));
      const sent: SavedModelSettings = {
        allowed_models: allowedModels,
        model_aliases: update.model_aliases ?? current.model_aliases,
        per_model_max_tokens: update.per_model_max_tokens ?? current.per_model_max_tokens,
        default_embedding_model:
          update.default_embedding_model !== undefined
            ? update.default_embedding_model
            : current.default_embedding_model,
        // The file's prices stay the default until other prices are saved (the screen sends them back
        // as they are with every save): such saves leave them out.
        ...(this.snapshot.pricingSaved ||
        (update.pricing !== undefined && !sameSettings(update.pricing, current.pricing))
          ? { pricing: update.pricing ?? current.pricing }
          : {}),
      };
      const sentEffective: ModelSettings = { ...sent, pricing: sent.pricing ?? this.options.config.pricing };
      // A removed model's cap goes with it (a cap of a model not allowed would be refused when sent again).
      const effective = withoutRemovedCaps(sentEffective, removed);
      const next: SavedModelSettings = { ...sent, per_model_max_tokens: effective.per_model_max_tokens };
      const problem = aliasProblem(effective);
      if (problem !== undefined) throw new GatewayError('invalid', problem);
      // A removal that would leave an alias or the default embeddings model pointing at nothing.
      const removal = removalProblem(removed, effective, this.options.config.allow_passthrough_keys);
      if (removal !== undefined) throw new GatewayError('conflict', removal);
      // Only what this update sends: settings saved before stay as they are until they are sent again.
      const [issue] = modelSettingIssues({
        settings: effective,
        caps: update.per_model_max_tokens !== undefined,
        prices: update.pricing !== undefined ? newPrices(update.pricing, current.pricing) : [],
        upstreamModels,
        defaultEmbeddingModel: update.default_embedding_model != null,
        passthrough: this.options.config.allow_passthrough_keys,
      });
      if (issue !== undefined) throw new GatewayError('invalid', `${issue.path.join('.')}: ${issue.message}`);
      if (sameSettings(effective, current)) return false;
      repository.put('models', next, this.now());
    }
    this.snapshot = this.compile();
    for (const listener of this.settingsListeners) listener();
    return true;
  }

  /**
   * Replaces the deployment list (or returns to the configuration file's). A deployment sent with the
   * id it was listed under and without `api_key` keeps the key stored for it, so the UI never holds
   * secrets; `api_key: null` clears it. A kept key never follows a deployment to another address.
   * A list that could not be routed as written (an id listed twice, an unknown provider, no base URL)
   * is refused with 400 invalid_request_error and nothing changes.
   */
  replaceDeployments(inputs: readonly DeploymentInput[] | 'reset'): void {
    const { repository } = this.options;
    if (inputs === 'reset') {
      repository.delete('deployments');
    } else {
      const sources = this.sources(true);
      const { resolved, problems } = deploymentListProblems(inputs, sources);
      if (problems.length > 0) throw new GatewayError('invalid', problems[0]!);
      const before = this.snapshot.deploymentInputs;
      const previous = new Map(
        resolveDeployments(before, sources).map((resolved, i) => [resolved.id, { input: before[i]!, resolved }]),
      );
      const merged = inputs.map((input, i) => {
        const { api_key: apiKey, ...rest } = input;
        const next = { ...rest, id: resolved[i]!.id };
        if (apiKey === null) return next;
        if (apiKey !== undefined || input.api_key_env !== undefined)
          return { ...next, ...(apiKey !== undefined ? { api_key: apiKey } : {}) };
        // Only an id the client sent back matches: positional ids shift when a deployment is removed.
        const old = input.id !== undefined ? previous.get(input.id) : undefined;
        const sameAddress = old !== undefined && old.resolved.baseUrl === resolved[i]!.baseUrl;
        return old?.input.api_key && sameAddress ? { ...next, api_key: old.input.api_key } : next;
      });
      repository.put('deployments', merged, this.now());
    }
    this.snapshot = this.compile();
  }

  /** Where deployments' values come from; `fromAdminApi` for a list set through the admin API. */
  /**
   * What a deployment sent through the admin API resolves against (the file's providers and secrets,
   * and the key variables the admin API may read): a connection test resolves a form as a save would.
   */
  adminDeploymentSources(): DeploymentSources {
    return this.sources(true);
  }

  private sources(fromAdminApi = false): DeploymentSources {
    const file = fileDeploymentSources(this.options.config, this.options.env ?? process.env, this.ownSecrets);
    return fromAdminApi ? { ...file, apiKeyVariables: this.apiKeyVariables } : file;
  }

  private providerOf(model: string, snap: Snapshot): string | undefined {
    const explicit = snap.byModel.get(model);
    if (explicit && explicit.length > 0) return explicit[0]!.provider;
    return inferProvider(model, snap.deployments);
  }

  private compile(): Snapshot {
    const { config, repository } = this.options;
    const storedSettings = repository.get<SavedModelSettings>('models');
    const storedDeployments = repository.get<DeploymentInput[]>('deployments');
    const saved: SavedModelSettings = storedSettings?.value ?? {
      allowed_models: config.llm.allowed_models,
      model_aliases: config.llm.model_aliases,
      per_model_max_tokens: config.llm.per_model_max_tokens,
      default_embedding_model: config.llm.default_embedding_model ?? null,
    };
    const settings: ModelSettings = { ...saved, pricing: saved.pricing ?? config.pricing };
    const deploymentInputs = storedDeployments?.value ?? config.deployments;
    const deployments = resolveDeployments(deploymentInputs, this.sources(storedDeployments !== undefined));
    const byModel = new Map<string, Deployment[]>();
    for (const deployment of deployments)
      byModel.set(deployment.model, [...(byModel.get(deployment.model) ?? []), deployment]);
    const partial = {
      settings,
      settingsSource: source(storedSettings),
      pricingSaved: saved.pricing !== undefined,
      deploymentInputs,
      deploymentsSource: source(storedDeployments),
      allowed: new Set(settings.allowed_models),
      aliases: new Map(Object.entries(settings.model_aliases)),
      caps: new Map(Object.entries(settings.per_model_max_tokens)),
      deployments,
      byModel,
      implicit: new Map<string, readonly Deployment[]>(),
      modelList: { object: 'list' as const, data: [] as ModelObject[] },
      policyVersion: policyVersion(settings, deployments, config),
    };
    // Recorded as the snapshot is built (start, saves), so a request never writes; a name allowed
    // again keeps its first time.
    const firstSeen = this.firstSeen.record(settings.allowed_models, this.now());
    partial.modelList.data = settings.allowed_models.map((id) => ({
      id,
      object: 'model' as const,
      created: Math.floor(firstSeen.get(id)! / 1000),
      owned_by: this.providerOf(id, partial) ?? 'unknown',
    }));
    return partial;
  }
}

/**
 * Whether two settings documents hold the same values, whatever the order of their keys: a save of the
 * values in force is no change (nothing written, the source kept).
 */
export function sameSettings(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(asJson(a), asJson(b));
}

/** As stored: fields left undefined are absent. */
const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value ?? null));

function source(stored: { updatedAt: number } | undefined): SettingSource {
  return stored ? { source: 'database', updatedAt: stored.updatedAt } : { source: 'config', updatedAt: null };
}

/** The models whose price an update adds or changes (prices kept as they are need no new check). */
function newPrices(sent: ModelSettings['pricing'], current: ModelSettings['pricing']): string[] {
  return Object.keys(sent).filter(
    (model) => !Object.hasOwn(current, model) || !sameSettings(sent[model], current[model]),
  );
}

function dedupe(values: readonly string[]): string[] {
  return [...new Set(values)];
}
