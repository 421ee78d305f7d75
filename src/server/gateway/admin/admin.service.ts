import type {
  ApiKeyCreate,
  ApiKeyCreated,
  ApiKeyList,
  ApiKeyRecord,
  ApiKeyRotate,
  ApiKeyStatus,
  ApiKeyUpdate,
  DeploymentList,
  DeploymentsUpdate,
  ModelSettingsUpdate,
  ModelSettingsView,
} from '../../../shared/gateway-api.js';
import { modelSettingsOf } from '../../../shared/gateway-api.js';
import type { LimitStatus } from '../../../shared/principals-api.js';
import { GatewayError } from '../gateway-error.js';
import type { AuditRepository } from '../accounting/audit.repository.js';
import { changesNothing, recordAction } from '../accounting/record-action.js';
import { deploymentChanges } from '../accounting/deployment-changes.js';
import { toKeyRecord } from '../keys/key-view.js';
import type { ApiKeyRow } from '../keys/keys.repository.js';
import type { KeysService } from '../keys/keys.service.js';
import type { LimitsService } from '../limits/limits.service.js';
import type { PrincipalsService } from '../principals/principals.service.js';
import { principalCreations } from '../principals/principal-creations.js';
import { toDeploymentView } from '../model-registry/deployment.js';
import type { DeploymentHealthTracker } from '../model-registry/deployment-health.js';
import type { ModelRegistry } from '../model-registry/model-registry.js';
import { removedModels } from '../model-registry/model-removal.js';
import type { GatewayEventBus } from '../traffic/event-bus.js';

/** Who performed an admin action, for the audit trail. */
export interface AdminActor {
  readonly requestId: string;
}

/** Which page of an admin list: at most `limit` records (all when absent) after the cursor `after`. */
export interface ListPage {
  readonly limit?: number;
  readonly after?: string;
}

/**
 * A page of at most `limit` rows (all when absent) and the `next_cursor` after it (null on the last).
 * `read` is asked for one row more than the page holds, which tells whether another page follows.
 */
export function readPage<Row>(
  limit: number | undefined,
  read: (limit: number | undefined) => Row[],
  cursorOf: (row: Row) => string,
): { readonly rows: Row[]; readonly nextCursor: string | null } {
  const rows = read(limit === undefined ? undefined : limit + 1);
  const page = limit === undefined ? rows : rows.slice(0, limit);
  return { rows: page, nextCursor: rows.length > page.length ? cursorOf(page[page.length - 1]!) : null };
}

const MASTER = 'master';
const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/**
 * The admin API's rules: every change goes through here so it is audited (synchronously: admin
 * actions are rare and must not be lost) and announced to the UI on the event bus.
 */
export class AdminService {
  constructor(
    private readonly keys: KeysService,
    private readonly principals: PrincipalsService,
    private readonly limits: LimitsService,
    private readonly registry: ModelRegistry,
    private readonly health: DeploymentHealthTracker,
    private readonly audit: AuditRepository,
    private readonly bus: GatewayEventBus,
  ) {}

  /** Issues a key; the secret is in this answer only. */
  createKey(sent: ApiKeyCreate, actor: AdminActor): ApiKeyCreated {
    const input = this.withStoredOwners(sent);
    // The key's user and team become records (when new); a user's team is the default of their keys.
    const team = this.ensurePrincipals(input.user, input.team, actor);
    const { row, secret } = this.keys.issue(team !== null ? { ...input, team } : input);
    const record = this.view(row);
    this.record(actor, 'api_key.create', row.id, {
      name: row.name,
      user: row.ownerUser,
      team: row.team,
      scopes: row.scopes,
      models: row.allowedModels,
      expires_at: record.expires_at,
      rpm_limit: record.rpm_limit,
      tpm_limit: record.tpm_limit,
      usd_daily_budget: record.usd_daily_budget,
      usd_monthly_budget: record.usd_monthly_budget,
      max_parallel_requests: record.max_parallel_requests,
      user_tpm_budget: record.user_tpm_budget,
      user_tpd_budget: record.user_tpd_budget,
      team_tpm_budget: record.team_tpm_budget,
      team_tpd_budget: record.team_tpd_budget,
      allow_stateful: record.allow_stateful,
    });
    this.bus.invalidate('api-keys', [row.id]);
    return { ...record, key: secret };
  }

  /**
   * Keys, never their secrets, newest first: all of them, or a page of `limit` after the key `after`
   * with the cursor of the next page (null on the last).
   */
  listKeys(
    filter: ListPage & {
      user?: string;
      team?: string;
      issuer?: string;
      includeRevoked: boolean;
      status?: ApiKeyStatus;
      name?: string;
    },
  ): ApiKeyList {
    const after = filter.after === undefined ? undefined : this.keys.get(filter.after);
    if (filter.after !== undefined && after === undefined)
      throw new GatewayError('invalid', `after: no API key with id '${filter.after}' (send the next_cursor of a page)`);
    // One time for the filter and the records, so a key listed as active shows as active.
    const now = Date.now();
    const { status, name, ...owners } = filter;
    // A user or team an older version stored decomposed is found by the composed id the filter arrives as.
    const page = readPage(
      filter.limit,
      (limit) =>
        this.keys.list({
          ...this.withStoredOwners(owners),
          status: status === undefined ? undefined : { is: status, now },
          nameContains: name,
          after,
          limit,
        }),
      (row) => row.id,
    );
    return { data: page.rows.map((row) => this.view(row, now)), next_cursor: page.nextCursor };
  }

  /** One key. */
  getKey(id: string): ApiKeyRecord {
    const row = this.keys.get(id);
    if (!row) throw new GatewayError('not_found', `no API key with id '${id}'`);
    return this.view(row);
  }

  /** Changes a key; applies from the next request. */
  updateKey(id: string, sent: ApiKeyUpdate, actor: AdminActor): ApiKeyRecord {
    const input = this.withStoredOwners(sent);
    const before = this.keys.get(id);
    if (before === undefined) throw new GatewayError('not_found', `no API key with id '${id}'`);
    // A revoked key is done with: a change would not bring it back, and could still make records.
    if (before.revokedAt !== null)
      throw new GatewayError('conflict', `API key '${id}' is revoked: issue a new key instead of changing it`);
    // An empty change changes nothing: no write and no audit event.
    if (changesNothing(input)) return this.view(before);
    this.requireOwners(input);
    const team = this.ensurePrincipals(input.user, input.team, actor);
    const change = this.followNewOwner(before, input, team);
    const row = this.keys.update(id, change);
    if (!row) throw new GatewayError('not_found', `no API key with id '${id}'`);
    // The values, not only the names: "rpm_limit changed" does not say to what. A key update holds no
    // secret. A relative expiry is recorded as the time it set, which is what the key now holds.
    const { expires_in_seconds: relative, ...rest } = change;
    const recorded =
      relative === undefined
        ? change
        : { ...rest, expires_at: row.expiresAt === null ? null : new Date(row.expiresAt).toISOString() };
    // What each changed field held, so the trail reads "rpm_limit 60 → 5" without the key's earlier events.
    const fields = Object.keys(recorded);
    const held: Readonly<Record<string, unknown>> = { ...toKeyRecord(before) };
    const previous = Object.fromEntries(fields.map((field) => [field, held[field] ?? null]));
    this.record(actor, 'api_key.update', id, { fields, ...recorded, before: previous });
    this.bus.invalidate('api-keys', [id]);
    return this.view(row);
  }

  /**
   * A key given to another user, or to none, without a team named: when its team was its old user's
   * (or it had none), it takes the new user's team (none for no user), as a key issued for them would.
   * Otherwise the new user's spending would go on charging the old team's budgets and reading the old
   * team's cached answers. A team the key was given on purpose stays.
   */
  private followNewOwner(before: ApiKeyRow, input: ApiKeyUpdate, userTeam: string | null): ApiKeyUpdate {
    if (input.user === undefined || input.team !== undefined || input.user === before.ownerUser) return input;
    const oldUserTeam = before.ownerUser === null ? null : (this.principals.user(before.ownerUser)?.team ?? null);
    if (before.team !== oldUserTeam || userTeam === before.team) return input;
    return { ...input, team: userTeam };
  }

  /**
   * Revokes a key: 401 from the next request on. Revoking twice is not an error. A key a sign-in
   * issued ends its SSO session with it (the sessions listen to the keys service).
   */
  revokeKey(id: string, actor: AdminActor): ApiKeyRecord {
    const before = this.keys.get(id);
    const row = this.keys.revoke(id, actor.requestId);
    if (!row) throw new GatewayError('not_found', `no API key with id '${id}'`);
    if (before?.revokedAt === null) {
      this.record(actor, 'api_key.revoke', id, { name: row.name });
      this.bus.invalidate('api-keys', [id]);
    }
    return this.view(row);
  }

  /**
   * Gives a key a new secret, shown in this answer only; everything else about the key stays. A
   * revoked key is refused: it cannot be brought back this way. So is an expired one: its new secret
   * would be refused at once.
   */
  rotateKey(id: string, input: ApiKeyRotate, actor: AdminActor): ApiKeyCreated {
    const before = this.keys.get(id);
    if (before === undefined) throw new GatewayError('not_found', `no API key with id '${id}'`);
    if (before.revokedAt !== null)
      throw new GatewayError('conflict', `API key '${id}' is revoked: issue a new key instead of rotating it`);
    if (before.expiresAt !== null && before.expiresAt <= Date.now())
      throw new GatewayError(
        'conflict',
        `API key '${id}' expired at ${new Date(before.expiresAt).toISOString()}: a new secret would be refused too; set a later expires_at (PATCH) first, or issue a new key`,
      );
    const rotated = this.keys.rotate(id, input.grace_seconds ?? 0);
    if (rotated === undefined) throw new GatewayError('not_found', `no API key with id '${id}'`);
    const record = this.view(rotated.row);
    this.record(actor, 'api_key.rotate', id, {
      name: rotated.row.name,
      key_prefix: record.key_prefix,
      previous_key_prefix: before.keyPrefix,
      previous_key_expires_at: record.previous_key_expires_at,
    });
    this.bus.invalidate('api-keys', [id]);
    return { ...record, key: rotated.secret };
  }

  /** The model settings in force. */
  modelSettings(): ModelSettingsView {
    const settings = this.registry.settings();
    const providers: Record<string, string> = {};
    for (const model of this.registry.modelList().data) providers[model.id] = model.owned_by;
    const modelLimits: Record<string, LimitStatus[]> = {};
    for (const model of settings.allowed_models) {
      const status = this.limits.modelStatus(model);
      if (status.length > 0) modelLimits[model] = status;
    }
    return {
      allowed_models: settings.allowed_models,
      model_aliases: settings.model_aliases,
      per_model_max_tokens: settings.per_model_max_tokens,
      default_embedding_model: settings.default_embedding_model,
      source: settings.source,
      updated_at: iso(settings.updatedAt),
      providers,
      model_limits: modelLimits,
    };
  }

  /**
   * Changes model settings; persisted and applied without a restart. `reset` stands alone: it returns
   * to the configuration file (source `config`), which fields sent beside it would contradict.
   */
  updateModelSettings(update: ModelSettingsUpdate, actor: AdminActor): ModelSettingsView {
    if (update.reset === true)
      refuseBesideReset(
        Object.keys(update).filter((field) => field !== 'reset'),
        'PUT /internal/models',
      );
    const before = this.registry.settings();
    // A save that changes nothing writes nothing: no event, and the file's settings stay in force.
    if (!this.registry.updateSettings(update)) return this.modelSettings();
    const after = this.registry.settings();
    const removed = removedModels(before.allowed_models, after.allowed_models);
    // The prices too: a changed price changes every cost and dollar budget from the next request.
    this.record(actor, update.reset ? 'models.reset' : 'models.update', null, {
      before: modelSettingsOf(before),
      after: modelSettingsOf(after),
      ...(removed.length > 0 ? { removed_models: this.stillNaming(removed) } : {}),
    });
    this.bus.invalidate('models');
    return this.modelSettings();
  }

  /**
   * What still names each removed model and is kept as it is (the keys limited to it, the deployments
   * serving it): unused until the model is allowed again, when they apply as before.
   */
  private stillNaming(removed: readonly string[]): Array<{ model: string; api_keys: string[]; deployments: string[] }> {
    const keys = this.keys.list({ includeRevoked: false });
    const deployments = this.registry.deployments();
    return removed.map((model) => ({
      model,
      api_keys: keys.filter((key) => key.allowedModels?.includes(model) === true).map((key) => key.id),
      deployments: deployments.filter((deployment) => deployment.model === model).map((deployment) => deployment.id),
    }));
  }

  /** The deployments in force (keys shown only as set or not). */
  deployments(): DeploymentList {
    const source = this.registry.deploymentsSource();
    return {
      source: source.source,
      updated_at: iso(source.updatedAt),
      defaults: this.registry.deploymentDefaults(),
      data: this.registry.deployments().map(toDeploymentView),
    };
  }

  /** Replaces the deployment list, or returns to the configuration file's; persisted and applied without a restart. */
  replaceDeployments(update: DeploymentsUpdate, actor: AdminActor): DeploymentList {
    if (update.reset === true)
      refuseBesideReset(update.deployments !== undefined ? ['deployments'] : [], 'PUT /internal/deployments');
    const inputs = update.reset === true ? 'reset' : (update.deployments ?? []);
    const before = this.registry.deployments();
    const sourceBefore = this.registry.deploymentsSource().source;
    this.registry.replaceDeployments(inputs);
    const after = this.registry.deployments();
    this.health.forgetChanged(before, after);
    const list = this.deployments();
    // The audit keeps what changed, never a key; a save that changed nothing is no action, as an
    // empty update of a key is none.
    const changes = deploymentChanges(before, after, { before: sourceBefore, after: list.source });
    if (changes !== undefined)
      this.record(actor, inputs === 'reset' ? 'deployments.reset' : 'deployments.update', null, { ...changes });
    this.bus.invalidate('deployments');
    return list;
  }

  /** A key's user and team named as their records are stored (one an older version stored decomposed). */
  private withStoredOwners<T extends { user?: string | null; team?: string | null }>(input: T): T {
    return {
      ...input,
      ...(typeof input.user === 'string' ? { user: this.principals.storedUserId(input.user) } : {}),
      ...(typeof input.team === 'string' ? { team: this.principals.storedTeamId(input.team) } : {}),
    };
  }

  /**
   * A key moved to a user or team must name an existing one, as a user moved to a team must: a typo
   * would otherwise make a new record, and the key would leave its real team's budgets in silence.
   */
  private requireOwners(input: { user?: string | null; team?: string | null }): void {
    if (typeof input.team === 'string' && this.principals.team(input.team) === undefined)
      throw new GatewayError('invalid', `team: no team with id '${input.team}'`);
    if (typeof input.user === 'string' && this.principals.user(input.user) === undefined)
      throw new GatewayError('invalid', `user: no user with id '${input.user}'`);
  }

  /** The records a key names, created when missing; each creation audited as through /internal/users and /internal/teams. */
  private ensurePrincipals(
    user: string | null | undefined,
    team: string | null | undefined,
    actor: AdminActor,
  ): string | null {
    const ensured = this.principals.ensureForKey(user, team);
    for (const event of principalCreations(ensured))
      this.record(actor, event.action, event.target, event.details, event.changed);
    return ensured.team;
  }

  /** A key as shown, with where its limits stand now. */
  private view(row: ApiKeyRow, now: number = Date.now()): ApiKeyRecord {
    return { ...toKeyRecord(row, now), limits: this.limits.keyStatus(row) };
  }

  private record(
    actor: AdminActor,
    action: string,
    target: string | null,
    details: Record<string, unknown>,
    changed?: Parameters<typeof recordAction>[3],
  ): void {
    const entry = { createdAt: Date.now(), actor: MASTER, action, target, requestId: actor.requestId, details };
    recordAction(this.audit, this.bus, entry, changed);
  }
}

/** `reset: true` with other fields: refused rather than guessing which of the two the caller meant. */
function refuseBesideReset(fields: readonly string[], endpoint: string): void {
  if (fields.length === 0) return;
  throw new GatewayError(
    'invalid',
    `reset cannot be combined with ${fields.join(', ')}: reset returns ${endpoint} to the configuration file's values; send the reset and the new values as two requests`,
  );
}
