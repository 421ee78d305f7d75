import { createHash } from 'node:crypto';
import type { Config } from '../../config/schema.js';
import {
  contentPolicySettingsSchema,
  piiSettingsSchema,
  type ContentPolicySettings,
  type ContentPolicySettingsUpdate,
  type PiiSettings,
  type PiiSettingsUpdate,
} from '../../../shared/guardrails-api.js';
import { sameSettings, type SettingSource } from '../model-registry/model-registry.js';
import type { SettingsRepository } from '../model-registry/settings.repository.js';
import { compilePii, compilePolicy, mergePii, mergePolicy, type RequestRules } from './rules.js';

/** Everything in force, compiled once per change and swapped whole. */
interface Snapshot {
  readonly pii: PiiSettings;
  readonly piiSource: SettingSource;
  readonly policy: ContentPolicySettings;
  readonly policySource: SettingSource;
  /** The rules of a request no override names: the common case, ready. */
  readonly base: RequestRules;
  readonly overridden: boolean;
  /** Rules by `<key id>\0<model>`, for the requests an override names, built on first use. */
  readonly scoped: Map<string, RequestRules>;
  readonly patterns: Map<string, RegExp>;
  /** A hash of both documents, or '' while both are the defaults (nothing to add to the policy version). */
  readonly digest: string;
}

const NO_RULES: RequestRules = { pii: undefined, policy: undefined };

/**
 * The PII and content-policy settings: the configuration file's unless the admin API stored an
 * override, which applies from the next request on and survives restarts. Per request, the rules
 * are merged field by field from the gateway's, the model's and the key's (most specific wins).
 */
export class GuardrailsSettings {
  private snapshot: Snapshot;

  constructor(
    private readonly config: Config,
    private readonly repository: SettingsRepository,
    private readonly now: () => number = Date.now,
  ) {
    this.snapshot = this.compile();
  }

  /** The rules for a request by this key (if any) to this canonical model (if resolved). */
  forRequest(keyId: string | undefined, model: string | undefined): RequestRules {
    const snap = this.snapshot;
    if (!snap.overridden) return snap.base;
    const key = keyId !== undefined && (own(snap.pii.keys, keyId) || own(snap.policy.keys, keyId)) ? keyId : '';
    const name = model !== undefined && (own(snap.pii.models, model) || own(snap.policy.models, model)) ? model : '';
    if (key === '' && name === '') return snap.base;
    const id = `${key}\u0000${name}`;
    let rules = snap.scoped.get(id);
    if (rules === undefined) {
      // Bounded: only names that an override lists get here.
      rules = {
        pii: compilePii(mergePii(snap.pii, at(snap.pii.models, name), at(snap.pii.keys, key))),
        policy: compilePolicy(
          mergePolicy(snap.policy, at(snap.policy.models, name), at(snap.policy.keys, key)),
          snap.patterns,
        ),
      };
      snap.scoped.set(id, rules);
    }
    return rules;
  }

  private combined = { routing: '', version: '' };

  /**
   * The `X-Gateway-Policy-Version` with these settings folded into the routing settings' hash: it
   * changes when either does. Unchanged while both documents are the defaults; one hash per change, not per request.
   */
  policyVersion(routing: string): string {
    const digest = this.snapshot.digest;
    if (digest === '') return routing;
    if (this.combined.routing !== routing) this.combined = { routing, version: hash(`${routing}:${digest}`) };
    return this.combined.version;
  }

  /** The PII settings in force and where they come from. */
  pii(): PiiSettings & SettingSource {
    return { ...this.snapshot.pii, ...this.snapshot.piiSource };
  }

  /** The content-policy settings in force and where they come from. */
  contentPolicy(): ContentPolicySettings & SettingSource {
    return { ...this.snapshot.policy, ...this.snapshot.policySource };
  }

  /**
   * Changes the PII settings (omitted fields keep their value; `reset` returns to the configuration
   * file). Returns whether anything changed: a save of the values in force writes nothing, so
   * settings still read from the file stay so.
   */
  updatePii(update: Omit<PiiSettingsUpdate, 'reset'> | 'reset'): boolean {
    return this.save('pii', this.snapshot.pii, this.snapshot.piiSource, update);
  }

  /** Changes the content-policy settings, as {@link updatePii}. */
  updateContentPolicy(update: Omit<ContentPolicySettingsUpdate, 'reset'> | 'reset'): boolean {
    return this.save('content_policy', this.snapshot.policy, this.snapshot.policySource, update);
  }

  /** Stores a document's new values, or forgets the stored one on `reset`; false, writing nothing, when that changes nothing. */
  private save(
    name: 'pii' | 'content_policy',
    current: object,
    from: SettingSource,
    update: object | 'reset',
  ): boolean {
    if (update === 'reset') {
      if (from.source === 'config') return false;
      this.repository.delete(name);
    } else {
      const next = { ...current, ...defined(update) };
      if (sameSettings(next, current)) return false;
      this.repository.put(name, next, this.now());
    }
    this.snapshot = this.compile();
    this.combined = { routing: '', version: '' };
    return true;
  }

  private compile(): Snapshot {
    const storedPii = this.repository.get<PiiSettings>('pii');
    const storedPolicy = this.repository.get<ContentPolicySettings>('content_policy');
    const pii = storedPii?.value ?? this.config.pii;
    // A document stored before answer patterns existed has none.
    const stored = storedPolicy?.value;
    const policy: ContentPolicySettings = stored
      ? { ...stored, blocked_answer_patterns: stored.blocked_answer_patterns ?? [] }
      : this.config.content_policy;
    const patterns = new Map<string, RegExp>();
    const base = { pii: compilePii(mergePii(pii)), policy: compilePolicy(mergePolicy(policy), patterns) };
    const overridden = [pii.models, pii.keys, policy.models, policy.keys].some((map) => Object.keys(map).length > 0);
    return {
      pii,
      piiSource: source(storedPii),
      policy,
      policySource: source(storedPolicy),
      base: base.pii === undefined && base.policy === undefined ? NO_RULES : base,
      overridden,
      scoped: new Map(),
      patterns,
      digest: isDefault(pii, policy) ? '' : hash(JSON.stringify([pii, policy])),
    };
  }
}

/** Own entries only: a client's model name such as `constructor` must not find Object.prototype's members. */
function own(record: Readonly<Record<string, unknown>>, name: string): boolean {
  return Object.hasOwn(record, name);
}

function at<T>(record: Readonly<Record<string, T>>, name: string): T | undefined {
  return name !== '' && Object.hasOwn(record, name) ? record[name] : undefined;
}

const DEFAULTS = JSON.stringify([piiSettingsSchema.parse({}), contentPolicySettingsSchema.parse({})]);

function isDefault(pii: PiiSettings, policy: ContentPolicySettings): boolean {
  return JSON.stringify([pii, policy]) === DEFAULTS;
}

function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

function source(stored: { updatedAt: number } | undefined): SettingSource {
  return stored ? { source: 'database', updatedAt: stored.updatedAt } : { source: 'config', updatedAt: null };
}

function defined<T extends object>(update: T): Partial<T> {
  return Object.fromEntries(Object.entries(update).filter(([, value]) => value !== undefined)) as Partial<T>;
}
