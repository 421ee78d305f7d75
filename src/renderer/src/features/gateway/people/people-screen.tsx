import { useRef, useState, type ReactNode } from 'react';
import type { TeamRecord, UserRecord } from '../../../../../shared/principals-api.js';
import { updateSearch, useLocation } from '../../../app/router.js';
import { useTeamPages, useTeams, useUserPages, useUsers } from '../../../api/principals-queries.js';
import { Button } from '../../../components/button.js';
import type { Column } from '../../../components/data-table.js';
import { EmptyState } from '../../../components/feedback.js';
import { PencilIcon, PlusIcon, TrashIcon, UsersIcon } from '../../../components/icons.js';
import { PageBody, PageHeader } from '../../../components/page.js';
import { TextInput } from '../../../components/field.js';
import { formatCompact, formatCost, formatInt, plural } from '../../../lib/format.js';
import { useFilterShortcut } from '../../../lib/use-filter-shortcut.js';
import { LimitMeters } from '../limit-meters.js';
import { useUnpricedReachable } from '../unpriced-budget-note.js';
import { DeletePrincipalDialog } from './delete-principal-dialog.js';
import { PagedPrincipalTable } from './paged-principal-table.js';
import { PrincipalDialog, type PrincipalTarget } from './principal-dialog.js';
import { SpendPanel } from './spend-panel.js';

type Today = TeamRecord['today'];

function TodayCell({ today }: { readonly today: Today }) {
  return (
    <span className="cell-stack" data-testid="today">
      <span>{formatCost(today.cost_usd)}</span>
      {/* Admitted only: the chart below counts the refused ones too, so the two must not read as one number. */}
      <span className="muted" title="Requests the limits admitted today (UTC); the chart below counts refused ones too">
        {formatInt(today.requests)} req admitted · {formatCompact(today.tokens)} tok
      </span>
    </span>
  );
}

/**
 * A record's id and name; `inline` repeats under them what the columns that give way in a narrow table
 * hold (a user's team, the counts), so they stay in view (see .col-inline-low, .col-inline-medium).
 */
function NameCell({
  id,
  name,
  inline,
}: {
  readonly id: string;
  readonly name: string | null;
  readonly inline?: ReactNode;
}) {
  return (
    <span className="cell-stack cell-clip" title={name ? `${id}\n${name}` : id}>
      <span className="cell-strong mono truncate">{id}</span>
      {name && <span className="muted truncate">{name}</span>}
      {inline}
    </span>
  );
}

/** Edit and Delete, named with the row's id so each button says what it acts on out of context. */
function RowActions({
  id,
  onEdit,
  onDelete,
}: {
  readonly id: string;
  readonly onEdit: () => void;
  readonly onDelete: () => void;
}) {
  return (
    // Titled: in a narrow table the buttons show their icons only (see .principal-actions).
    <span className="row-actions principal-actions">
      <Button
        size="sm"
        variant="ghost"
        icon={<PencilIcon />}
        aria-label={`Edit ${id}`}
        title={`Edit ${id}`}
        onClick={onEdit}
      >
        Edit
      </Button>
      <Button
        size="sm"
        variant="ghost"
        icon={<TrashIcon />}
        aria-label={`Delete ${id}`}
        title={`Delete ${id}`}
        onClick={onDelete}
      >
        Delete
      </Button>
    </span>
  );
}

/**
 * Users and teams: their limits and where they stand, today's spend, spend per day; create, edit, delete.
 * Both lists are read a page at a time; the filter (`/`, kept in the address as `q`) narrows both.
 */
export function PeopleScreen() {
  const filter = new URLSearchParams(useLocation().search).get('q') ?? '';
  const filterRef = useFilterShortcut();
  const teamPages = useTeamPages();
  const userPages = useUserPages();
  const [editing, setEditing] = useState<PrincipalTarget>();
  const [deleting, setDeleting] = useState<{ readonly kind: 'team' | 'user'; readonly id: string }>();
  const [deleted, setDeleted] = useState<{ readonly kind: 'team' | 'user'; readonly id: string }>();
  const newTeamRef = useRef<HTMLButtonElement>(null);
  const newUserRef = useRef<HTMLButtonElement>(null);
  // The dialog picks among every team and checks a new id against every one: the whole lists are read
  // only while it is open, not for the screen's pages.
  const teams = useTeams(editing !== undefined);
  const users = useUsers(editing?.kind === 'user' && editing.record === undefined);
  const teamIds = teams.data?.data.map((team) => team.id) ?? [];
  // Users and teams have no model list of their own: every allowed model is within their reach.
  const unpriced = useUnpricedReachable(null);

  const teamColumns: Column<TeamRecord>[] = [
    {
      header: 'Team',
      cell: (team) => (
        <NameCell
          id={team.id}
          name={team.name}
          inline={
            <span className="muted col-inline-low" data-testid="team-counts-inline">
              {plural(team.users, 'user')} · {plural(team.keys, 'key')}
            </span>
          }
        />
      ),
    },
    { header: 'Users', align: 'right', priority: 'low', cell: (team) => formatInt(team.users) },
    { header: 'Keys', align: 'right', priority: 'low', cell: (team) => formatInt(team.keys) },
    { header: 'Today', cell: (team) => <TodayCell today={team.today} /> },
    {
      header: 'Limits now',
      cell: (team) => <LimitMeters limits={team.limits} showOwner={false} unpriced={unpriced} />,
    },
    {
      header: '',
      align: 'right',
      className: 'cell-actions',
      cell: (team) => (
        <RowActions
          id={team.id}
          onEdit={() => setEditing({ kind: 'team', record: team })}
          onDelete={() => setDeleting({ kind: 'team', id: team.id })}
        />
      ),
    },
  ];
  const userColumns: Column<UserRecord>[] = [
    {
      header: 'User',
      cell: (user) => (
        <NameCell
          id={user.id}
          name={user.name ?? user.email}
          inline={
            <>
              <span
                className="truncate col-inline-medium"
                title={user.team ?? undefined}
                data-testid="user-team-inline"
              >
                {user.team ? <span className="mono">team {user.team}</span> : <span className="muted">no team</span>}
              </span>
              <span className="muted col-inline-low">{plural(user.keys, 'key')}</span>
            </>
          }
        />
      ),
    },
    {
      header: 'Team',
      priority: 'medium',
      cell: (user) => (user.team ? <span className="mono">{user.team}</span> : <span className="muted">—</span>),
    },
    { header: 'Keys', align: 'right', priority: 'low', cell: (user) => formatInt(user.keys) },
    { header: 'Today', cell: (user) => <TodayCell today={user.today} /> },
    {
      header: 'Limits now',
      cell: (user) => <LimitMeters limits={user.limits} showOwner={false} unpriced={unpriced} />,
    },
    {
      header: '',
      align: 'right',
      className: 'cell-actions',
      cell: (user) => (
        <RowActions
          id={user.id}
          onEdit={() => setEditing({ kind: 'user', record: user })}
          onDelete={() => setDeleting({ kind: 'user', id: user.id })}
        />
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Users & teams"
        subtitle="Who the keys belong to. A user's and a team's limits are shared by all their keys; spend is counted per UTC day."
        actions={
          <>
            <Button
              ref={newTeamRef}
              icon={<PlusIcon />}
              onClick={() => setEditing({ kind: 'team' })}
              data-testid="new-team"
            >
              New team
            </Button>
            <Button
              ref={newUserRef}
              variant="primary"
              icon={<PlusIcon />}
              onClick={() => setEditing({ kind: 'user' })}
              data-testid="new-user"
            >
              New user
            </Button>
          </>
        }
      />
      <PageBody>
        <div className="table-filter">
          <TextInput
            ref={filterRef}
            className="filter-input"
            aria-label="Filter users and teams"
            placeholder="Filter: id, name, email, team  /"
            value={filter}
            onChange={(event) => updateSearch({ q: event.target.value })}
          />
        </div>
        <div className="people-grid">
          <section className="panel">
            <h2 className="panel-title">Teams</h2>
            <PagedPrincipalTable
              query={teamPages}
              filter={filter}
              words={{ noun: 'team', label: 'Teams', testId: 'teams-table' }}
              columns={teamColumns}
              autoFocus
              removedKey={deleted?.kind === 'team' ? deleted.id : undefined}
              onOpen={(team) => setEditing({ kind: 'team', record: team })}
              emptyList={
                <EmptyState icon={<UsersIcon size={28} />} title="No teams yet">
                  A team groups users and keys under shared limits and budgets. Keys issued with a team name create it
                  too.
                </EmptyState>
              }
            />
          </section>
          <section className="panel">
            <h2 className="panel-title">Users</h2>
            <PagedPrincipalTable
              query={userPages}
              filter={filter}
              words={{ noun: 'user', label: 'Users', testId: 'users-table' }}
              columns={userColumns}
              removedKey={deleted?.kind === 'user' ? deleted.id : undefined}
              onOpen={(user) => setEditing({ kind: 'user', record: user })}
              emptyList={
                <EmptyState icon={<UsersIcon size={28} />} title="No users yet">
                  A user's limits and budgets are shared by all their keys. Keys issued with a user name create the user
                  too.
                </EmptyState>
              }
            />
          </section>
          <SpendPanel />
        </div>
      </PageBody>
      {editing && (
        <PrincipalDialog
          target={editing}
          teams={teamIds}
          takenIds={(editing.kind === 'team' ? teams : users).data?.data.map((record) => record.id)}
          onClose={() => setEditing(undefined)}
        />
      )}
      {deleting && (
        <DeletePrincipalDialog
          kind={deleting.kind}
          id={deleting.id}
          onClose={() => setDeleting(undefined)}
          onDeleted={() => setDeleted(deleting)}
          // The row's table, when it is gone too (the last one, or the filter's only match): where the next
          // search starts, or without one where the next of its kind is made.
          returnFocus={() =>
            filter.trim() !== '' ? filterRef.current : (deleting.kind === 'team' ? newTeamRef : newUserRef).current
          }
        />
      )}
    </>
  );
}
