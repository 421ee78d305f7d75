import type {
  TeamCreate,
  TeamList,
  TeamRecord,
  TeamUpdate,
  UserCreate,
  UserList,
  UserRecord,
  UserUpdate,
} from '../../../shared/principals-api.js';
import type { AuditRepository } from '../accounting/audit.repository.js';
import type { UsageRecorder } from '../accounting/usage-recorder.js';
import type { UsageRepository } from '../accounting/usage.repository.js';
import { GatewayError } from '../gateway-error.js';
import { windowStart } from '../limits/calendar-window.js';
import type { KeysService } from '../keys/keys.service.js';
import type { LimitsService } from '../limits/limits.service.js';
import type { ResponseCache } from '../cache/response-cache.js';
import type { ResponsesService } from '../responses/responses.service.js';
import type { TeamRow, UserRow } from '../principals/principals.repository.js';
import type { PrincipalsService } from '../principals/principals.service.js';
import { fieldChanges, teamFields, userFields } from '../principals/principal-fields.js';
import type { GatewayEventBus } from '../traffic/event-bus.js';
import { readPage, type AdminActor, type ListPage } from './admin.service.js';
import { recordAction } from '../accounting/record-action.js';

const NONE = { requests: 0, tokens: 0, cost_usd: 0 };

/** The admin API's rules for users and teams: changes are audited, announced to the UI, and apply at once. */
export class PrincipalsAdmin {
  constructor(
    private readonly principals: PrincipalsService,
    private readonly keys: KeysService,
    private readonly limits: LimitsService,
    private readonly usage: UsageRepository,
    private readonly recorder: UsageRecorder,
    private readonly audit: AuditRepository,
    private readonly bus: GatewayEventBus,
    /** What a team leaves behind besides its record: its kept responses and cached answers. */
    private readonly teamData: { readonly responses: ResponsesService; readonly cache: ResponseCache },
  ) {}

  /** Teams by id (bytewise): every one, or a page and the cursor of the next. */
  teams(page: ListPage): TeamList {
    const spend = this.today('team');
    const keys = this.principals.keyCounts().teams;
    const users = new Map<string, number>();
    for (const user of this.principals.users()) if (user.team) users.set(user.team, (users.get(user.team) ?? 0) + 1);
    const { rows, nextCursor } = readPage(
      page.limit,
      (limit) => this.principals.teamPage({ after: page.after, limit }),
      (team) => team.id,
    );
    return {
      data: rows.map((team) =>
        this.teamView(team, users.get(team.id) ?? 0, keys.get(team.id) ?? 0, spend.get(team.id)),
      ),
      next_cursor: nextCursor,
    };
  }

  team(sent: string): TeamRecord {
    const id = this.principals.storedTeamId(sent);
    const row = this.principals.team(id);
    if (row === undefined) throw new GatewayError('not_found', `no team with id '${id}'`);
    const keys = this.principals.keyCounts().teams.get(id) ?? 0;
    return this.teamView(row, this.principals.users(id).length, keys, this.today('team').get(id));
  }

  /** Users (of `team`, when given) by id (bytewise): every one, or a page and the cursor of the next. */
  users(team: string | undefined, page: ListPage): UserList {
    const spend = this.today('user');
    const keys = this.principals.keyCounts().users;
    const { rows, nextCursor } = readPage(
      page.limit,
      (limit) => this.principals.userPage(team, { after: page.after, limit }),
      (user) => user.id,
    );
    return {
      data: rows.map((user) => this.userView(user, keys.get(user.id) ?? 0, spend.get(user.id))),
      next_cursor: nextCursor,
    };
  }

  user(sent: string): UserRecord {
    const id = this.principals.storedUserId(sent);
    const row = this.principals.user(id);
    if (row === undefined) throw new GatewayError('not_found', `no user with id '${id}'`);
    return this.userView(row, this.principals.keyCounts().users.get(id) ?? 0, this.today('user').get(id));
  }

  createTeam(input: TeamCreate, actor: AdminActor): TeamRecord {
    const row = this.principals.createTeam(input);
    this.record(actor, 'team.create', row.id, { ...input });
    return this.team(row.id);
  }

  updateTeam(sent: string, input: TeamUpdate, actor: AdminActor): TeamRecord {
    const id = this.principals.storedTeamId(sent);
    const current = this.principals.team(id);
    if (current === undefined) throw new GatewayError('not_found', `no team with id '${id}'`);
    // A change that changes nothing (no field, or only the values in force) writes nothing and records no event.
    const changes = fieldChanges(teamFields(current), input);
    if (changes === undefined) return this.team(id);
    this.principals.updateTeam(id, input);
    this.record(actor, 'team.update', id, { ...changes });
    return this.team(id);
  }

  /**
   * Deletes a team with what it left behind: the responses its keys kept and its cached answers go,
   * and its limits start afresh, since a team created again under the same id is someone else. The
   * audit keeps the record as it was, its limits and budgets included.
   */
  deleteTeam(sent: string, actor: AdminActor): TeamRecord {
    const id = this.principals.storedTeamId(sent);
    const before = this.team(id);
    const row = this.principals.deleteTeam(id);
    const responses = this.teamData.responses.forgetTeam(id);
    const cached = this.teamData.cache.purge({ team: id });
    this.limits.forget('team', id);
    this.record(actor, 'team.delete', id, {
      before: teamFields(row),
      responses_deleted: responses,
      cache_entries_purged: cached,
    });
    return before;
  }

  createUser(input: UserCreate, actor: AdminActor): UserRecord {
    const row = this.principals.createUser(input);
    this.record(actor, 'user.create', row.id, { ...input });
    return this.user(row.id);
  }

  updateUser(sent: string, input: UserUpdate, actor: AdminActor): UserRecord {
    const id = this.principals.storedUserId(sent);
    const current = this.principals.user(id);
    if (current === undefined) throw new GatewayError('not_found', `no user with id '${id}'`);
    const changes = fieldChanges(userFields(current), input);
    if (changes === undefined) return this.user(id);
    const before = current.team;
    const after = this.principals.updateUser(id, input).team;
    const moved = after !== before ? this.keys.followUserTeam(id, before, after) : [];
    this.record(actor, 'user.update', id, { ...changes });
    // Each moved key now draws on another team's budgets: its own trail says so.
    for (const key of moved)
      this.record(actor, 'api_key.update', key, { team: after, following_user: id, before: { team: before } });
    return this.user(id);
  }

  /** Deletes a user; the audit keeps the record as it was, its limits and budgets included. */
  deleteUser(sent: string, actor: AdminActor): UserRecord {
    const id = this.principals.storedUserId(sent);
    const before = this.user(id);
    const row = this.principals.deleteUser(id);
    this.limits.forget('user', id);
    this.record(actor, 'user.delete', id, { before: userFields(row) });
    return before;
  }

  /** What each user or team used today (UTC). */
  private today(group: 'user' | 'team'): Map<string, typeof NONE> {
    this.recorder.flush();
    return this.usage.totalsSince(group, windowStart('day', Date.now()));
  }

  private teamView(team: TeamRow, users: number, keys: number, today: typeof NONE | undefined): TeamRecord {
    return { ...teamFields(team), users, keys, today: today ?? NONE, limits: this.limits.teamStatus(team) };
  }

  private userView(user: UserRow, keys: number, today: typeof NONE | undefined): UserRecord {
    return { ...userFields(user), keys, today: today ?? NONE, limits: this.limits.userStatus(user) };
  }

  private record(actor: AdminActor, action: string, target: string, details: Record<string, unknown>): void {
    const entry = { createdAt: Date.now(), actor: 'master', action, target, requestId: actor.requestId, details };
    recordAction(this.audit, this.bus, entry, { topic: action.startsWith('team') ? 'teams' : 'users', ids: [target] });
  }
}
