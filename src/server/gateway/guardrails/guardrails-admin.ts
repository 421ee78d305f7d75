import type {
  ContentPolicySettingsUpdate,
  ContentPolicySettingsView,
  PiiSettingsUpdate,
  PiiSettingsView,
} from '../../../shared/guardrails-api.js';
import type { AuditRepository } from '../accounting/audit.repository.js';
import type { AdminActor } from '../admin/admin.service.js';
import { GatewayError } from '../gateway-error.js';
import type { KeysService } from '../keys/keys.service.js';
import type { ModelRegistry } from '../model-registry/model-registry.js';
import { modelNameProblem } from '../model-registry/model-name-problem.js';
import type { GatewayEventBus } from '../traffic/event-bus.js';
import type { GuardrailsSettings } from './guardrails-settings.js';
import { recordAction } from '../accounting/record-action.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/**
 * The admin API's rules for the PII and content-policy settings: overrides must name an allowed
 * (canonical) model and an existing key, every change is audited and announced to the UI, and it
 * applies from the next request on.
 */
export class GuardrailsAdmin {
  constructor(
    private readonly settings: GuardrailsSettings,
    private readonly keys: KeysService,
    private readonly registry: ModelRegistry,
    private readonly audit: AuditRepository,
    private readonly bus: GatewayEventBus,
  ) {}

  /** The PII settings in force. */
  pii(): PiiSettingsView {
    const { source, updatedAt, ...settings } = this.settings.pii();
    return { ...settings, source, updated_at: iso(updatedAt) };
  }

  /** The content-policy settings in force. */
  contentPolicy(): ContentPolicySettingsView {
    const { source, updatedAt, ...settings } = this.settings.contentPolicy();
    return { ...settings, source, updated_at: iso(updatedAt) };
  }

  /** Changes the PII settings; persisted and applied without a restart. A save that changes nothing records nothing. */
  updatePii(update: PiiSettingsUpdate, actor: AdminActor): PiiSettingsView {
    const { reset, ...fields } = update;
    this.checkScopes(fields, reset, 'PUT /internal/pii');
    const before = this.pii();
    if (!this.settings.updatePii(reset === true ? 'reset' : fields)) return before;
    const after = this.pii();
    this.record(actor, reset ? 'pii.reset' : 'pii.update', settingsChange(before, after));
    return after;
  }

  /** Changes the content-policy settings, as {@link updatePii}. */
  updateContentPolicy(update: ContentPolicySettingsUpdate, actor: AdminActor): ContentPolicySettingsView {
    const { reset, ...fields } = update;
    this.checkScopes(fields, reset, 'PUT /internal/content-policy');
    const before = this.contentPolicy();
    if (!this.settings.updateContentPolicy(reset === true ? 'reset' : fields)) return before;
    const after = this.contentPolicy();
    this.record(actor, reset ? 'content_policy.reset' : 'content_policy.update', settingsChange(before, after));
    return after;
  }

  /** `reset` stands alone; overrides name models that are allowed (not aliases) and keys that exist. */
  private checkScopes(
    fields: { models?: Record<string, unknown>; keys?: Record<string, unknown> },
    reset: boolean | undefined,
    endpoint: string,
  ): void {
    const others = Object.keys(fields);
    if (reset === true && others.length > 0)
      throw new GatewayError(
        'invalid',
        `reset cannot be combined with ${others.join(', ')}: reset returns ${endpoint} to the configuration file's values; send the reset and the new values as two requests`,
      );
    for (const model of Object.keys(fields.models ?? {})) {
      const problem = modelNameProblem(this.registry, model);
      if (problem !== undefined) throw new GatewayError('invalid', `models.${model}: ${problem}`);
    }
    for (const key of Object.keys(fields.keys ?? {})) {
      if (this.keys.get(key) === undefined)
        throw new GatewayError('invalid', `keys.${key}: no API key with id '${key}'`);
    }
  }

  private record(actor: AdminActor, action: string, details: Record<string, unknown>): void {
    const entry = { createdAt: Date.now(), actor: 'master', action, target: null, requestId: actor.requestId, details };
    recordAction(this.audit, this.bus, entry, { topic: 'guardrails' });
  }
}

/** The settings before and after a save, and where they come from when the save moved them (as deployments' events say). */
function settingsChange<T extends { source: string; updated_at: unknown }>(
  before: T,
  after: T,
): Record<string, unknown> {
  return {
    before: withoutSource(before),
    after: withoutSource(after),
    ...(before.source !== after.source ? { source: { before: before.source, after: after.source } } : {}),
  };
}

function withoutSource<T extends { source: unknown; updated_at: unknown }>(view: T): Omit<T, 'source' | 'updated_at'> {
  const { source: _source, updated_at: _updated, ...rest } = view;
  return rest;
}
