import type { TeamCreate, TeamUpdate, UserCreate, UserUpdate } from '../../../shared/principals-api.js';
import { GatewayError } from '../gateway-error.js';
import type { IdPage, PrincipalsRepository, TeamPatch, TeamRow, UserPatch, UserRow } from './principals.repository.js';

type LimitFields = Pick<
  TeamRow,
  'rpmLimit' | 'tpmLimit' | 'maxParallelRequests' | 'tpmBudget' | 'tpdBudget' | 'usdDailyBudget' | 'usdMonthlyBudget'
>;
type LimitInput = Pick<
  TeamUpdate,
  | 'rpm_limit'
  | 'tpm_limit'
  | 'max_parallel_requests'
  | 'tpm_budget'
  | 'tpd_budget'
  | 'usd_daily_budget'
  | 'usd_monthly_budget'
>;

/** The limit columns an input sets (absent fields are left out, null clears). */
function limitPatch(input: LimitInput): Partial<LimitFields> {
  const patch: Partial<LimitFields> = {};
  if (input.rpm_limit !== undefined) patch.rpmLimit = input.rpm_limit;
  if (input.tpm_limit !== undefined) patch.tpmLimit = input.tpm_limit;
  if (input.max_parallel_requests !== undefined) patch.maxParallelRequests = input.max_parallel_requests;
  if (input.tpm_budget !== undefined) patch.tpmBudget = input.tpm_budget;
  if (input.tpd_budget !== undefined) patch.tpdBudget = input.tpd_budget;
  if (input.usd_daily_budget !== undefined) patch.usdDailyBudget = input.usd_daily_budget;
  if (input.usd_monthly_budget !== undefined) patch.usdMonthlyBudget = input.usd_monthly_budget;
  return patch;
}

const NO_LIMITS: LimitFields = {
  rpmLimit: null,
  tpmLimit: null,
  maxParallelRequests: null,
  tpmBudget: null,
  tpdBudget: null,
  usdDailyBudget: null,
  usdMonthlyBudget: null,
};

/** A key's team (given, or its user's), and the user and team records its issuance created (null: none). */
export interface KeyPrincipals {
  readonly team: string | null;
  readonly createdTeam: string | null;
  readonly createdUser: string | null;
}

/**
 * Users and teams. All of them are held in memory (there are as many as people and groups, not
 * requests): the limits stage reads them on every request without touching the database, and a change
 * here applies to the next request.
 */
export class PrincipalsService {
  private readonly teamsById = new Map<string, TeamRow>();
  private readonly usersById = new Map<string, UserRow>();

  constructor(
    private readonly repository: PrincipalsRepository,
    private readonly now: () => number = Date.now,
  ) {
    for (const team of repository.teams()) this.teamsById.set(team.id, team);
    for (const user of repository.users()) this.usersById.set(user.id, user);
  }

  team(id: string): TeamRow | undefined {
    return this.teamsById.get(id);
  }

  /**
   * The id a team is stored under, for an id as a path sent it: as written, else the one equal to it
   * once both are composed (NFC). Ids are composed when records are made; one an older version stored
   * decomposed is found by either form. Not found: the id as sent.
   */
  storedTeamId(id: string): string {
    return storedId(this.teamsById, id);
  }

  /** The id a user is stored under (see {@link storedTeamId}). */
  storedUserId(id: string): string {
    return storedId(this.usersById, id);
  }

  /**
   * Whether a request that began at `since` in `team` may still leave data to it: the team is the same
   * record (not deleted, nor deleted and created again under its id for someone else since).
   */
  sameTeamSince(team: string | null, since: number): boolean {
    if (team === null) return true;
    const row = this.teamsById.get(team);
    return row !== undefined && row.createdAt <= since;
  }

  user(id: string): UserRow | undefined {
    return this.usersById.get(id);
  }

  teams(): TeamRow[] {
    return [...this.teamsById.values()].sort((a, b) => a.id.localeCompare(b.id));
  }

  users(team?: string): UserRow[] {
    const all = [...this.usersById.values()].sort((a, b) => a.id.localeCompare(b.id));
    return team === undefined ? all : all.filter((user) => user.team === team);
  }

  /** Teams as the admin list pages them: from the database, by id (bytewise). */
  teamPage(page: IdPage): TeamRow[] {
    return this.repository.teams(page);
  }

  /** Users (of `team`, when given) as the admin list pages them: from the database, by id (bytewise). */
  userPage(team: string | undefined, page: IdPage): UserRow[] {
    return this.repository.users({ ...page, team });
  }

  createTeam(input: TeamCreate): TeamRow {
    if (this.teamsById.has(storedId(this.teamsById, input.id)))
      throw new GatewayError('conflict', `team '${input.id}' already exists`);
    const now = this.now();
    const row = this.repository.insertTeam({
      id: input.id,
      name: input.name ?? null,
      ...NO_LIMITS,
      ...limitPatch(input),
      metadata: input.metadata ?? null,
      createdAt: now,
      updatedAt: now,
    });
    this.teamsById.set(row.id, row);
    return row;
  }

  createUser(input: UserCreate): UserRow {
    if (this.usersById.has(storedId(this.usersById, input.id)))
      throw new GatewayError('conflict', `user '${input.id}' already exists`);
    if (input.team !== undefined) this.requireTeam(input.team, 'team');
    const now = this.now();
    const row = this.repository.insertUser({
      id: input.id,
      name: input.name ?? null,
      email: input.email ?? null,
      team: input.team ?? null,
      ...NO_LIMITS,
      ...limitPatch(input),
      metadata: input.metadata ?? null,
      createdAt: now,
      updatedAt: now,
      ssoIssuer: null,
      ssoSubject: null,
    });
    this.usersById.set(row.id, row);
    return row;
  }

  /** Binds a user id to the OpenID account (issuer, subject) of its first single sign-on. */
  bindSsoAccount(id: string, issuer: string, subject: string): UserRow {
    this.requireUser(id);
    const row = this.repository.updateUser(id, { ssoIssuer: issuer, ssoSubject: subject, updatedAt: this.now() })!;
    this.usersById.set(id, row);
    return row;
  }

  updateTeam(id: string, input: TeamUpdate): TeamRow {
    this.requireTeam(id, 'id');
    const patch: TeamPatch = { ...limitPatch(input), updatedAt: this.now() };
    if (input.name !== undefined) patch.name = input.name;
    if (input.metadata !== undefined) patch.metadata = input.metadata;
    const row = this.repository.updateTeam(id, patch)!;
    this.teamsById.set(id, row);
    return row;
  }

  updateUser(id: string, input: UserUpdate): UserRow {
    this.requireUser(id);
    if (input.team !== undefined && input.team !== null) this.requireTeam(input.team, 'team');
    const patch: UserPatch = { ...limitPatch(input), updatedAt: this.now() };
    if (input.name !== undefined) patch.name = input.name;
    if (input.email !== undefined) patch.email = input.email;
    if (input.team !== undefined) patch.team = input.team;
    if (input.metadata !== undefined) patch.metadata = input.metadata;
    const row = this.repository.updateUser(id, patch)!;
    this.usersById.set(id, row);
    return row;
  }

  /** Deletes a team that no user and no active key belongs to (409 naming what still does). */
  deleteTeam(id: string): TeamRow {
    const row = this.requireTeam(id, 'id');
    const users = this.users(id).length;
    const keys = this.repository.activeKeysPerTeam().get(id) ?? 0;
    if (users > 0 || keys > 0)
      throw new GatewayError(
        'conflict',
        `team '${id}' still has ${users} user(s) and ${keys} active key(s); move or revoke them first`,
      );
    this.repository.deleteTeam(id);
    this.teamsById.delete(id);
    return row;
  }

  /** Deletes a user who owns no active key (409 otherwise). */
  deleteUser(id: string): UserRow {
    const row = this.requireUser(id);
    const keys = this.repository.activeKeysPerUser().get(id) ?? 0;
    if (keys > 0)
      throw new GatewayError(
        'conflict',
        `user '${id}' still owns ${keys} active key(s); revoke them first, or delete with revoke_keys=true to revoke them with the user`,
      );
    this.repository.deleteUser(id);
    this.usersById.delete(id);
    return row;
  }

  /**
   * The records a key's `user` and `team` name, created when missing (keys issued for a new person or
   * group need no separate step). Returns the team a key of this user gets when none is given, and
   * which records were created, for the caller to audit.
   */
  ensureForKey(user: string | null | undefined, team: string | null | undefined): KeyPrincipals {
    const createdTeam = team != null && !this.teamsById.has(team) ? this.createTeam({ id: team }).id : null;
    if (user == null) return { team: team ?? null, createdTeam, createdUser: null };
    const existing = this.usersById.get(user);
    const owner = existing ?? this.createUser({ id: user, ...(team != null ? { team } : {}) });
    return { team: team ?? owner.team, createdTeam, createdUser: existing === undefined ? owner.id : null };
  }

  /** The ids of a user's keys that are not revoked (expired ones included: they still count as the user's). */
  activeKeyIds(user: string): string[] {
    return this.repository.activeKeyIdsOfUser(user);
  }

  /**
   * Runs `work` in one database transaction, for a change of several records that must not stop half
   * way (a user's keys revoked and the user deleted). `work` must be synchronous.
   */
  inTransaction<T>(work: () => T): T {
    return this.repository.inTransaction(work);
  }

  /** Active keys per user and per team, for the listings. */
  keyCounts(): { readonly users: Map<string, number>; readonly teams: Map<string, number> } {
    return { users: this.repository.activeKeysPerUser(), teams: this.repository.activeKeysPerTeam() };
  }

  private requireTeam(id: string, field: string): TeamRow {
    const row = this.teamsById.get(id);
    if (row === undefined)
      throw new GatewayError(field === 'id' ? 'not_found' : 'invalid', `${field}: no team with id '${id}'`);
    return row;
  }

  private requireUser(id: string): UserRow {
    const row = this.usersById.get(id);
    if (row === undefined) throw new GatewayError('not_found', `no user with id '${id}'`);
    return row;
  }
}

/** The key of `byId` equal to `id` as written, or once both are composed (a scan: only on a miss). */
function storedId(byId: ReadonlyMap<string, unknown>, id: string): string {
  if (byId.has(id)) return id;
  const composed = id.normalize('NFC');
  for (const stored of byId.keys()) if (stored.normalize('NFC') === composed) return stored;
  return id;
}
