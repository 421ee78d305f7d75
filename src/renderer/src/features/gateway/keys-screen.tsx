import { useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import type { ApiKeyCreated, ApiKeyRecord } from '../../../../shared/gateway-api.js';
import { updateSearch, useLocation } from '../../app/router.js';
import {
  useApiKeys,
  useKeySecretOnItsWay,
  useKeySpendToday,
  useModelSettings,
  useRevokeKey,
} from '../../api/gateway-queries.js';
import { Badge } from '../../components/badge.js';
import { Button } from '../../components/button.js';
import { CopyButton } from '../../components/copy-button.js';
import { DataTable, type Column, type ColumnSort } from '../../components/data-table.js';
import { TextInput } from '../../components/field.js';
import { ConfirmFooter, Dialog } from '../../components/dialog.js';
import { EmptyState, ErrorMessage } from '../../components/feedback.js';
import { GaugeIcon, KeyIcon, PencilIcon, PlusIcon, TrashIcon } from '../../components/icons.js';
import { PageBody, PageHeader } from '../../components/page.js';
import { QueryView } from '../../components/query-view.js';
import { showToast } from '../../components/toast.js';
import { useSession } from '../../connection/connection-context.js';
import { formatCost, formatInt, fullTime, plural, timeAgo } from '../../lib/format.js';
import { useFilterShortcut } from '../../lib/use-filter-shortcut.js';
import { EditKeyDialog } from './edit-key-dialog.js';
import { EditKeyLimitsDialog } from './edit-key-limits-dialog.js';
import { IssueKeyDialog } from './issue-key-dialog.js';
import { KeySecretDialog, SecretOnItsWay } from './key-secret-dialog.js';
import { NoActiveKeys, NoKeysYet } from './keys-empty-state.js';
import { RotateKeyDialog } from './rotate-key-dialog.js';
import { BudgetSpent, KeyStatus } from './key-status.js';
import { keyMatches, secretPrefix } from './keys-filter.js';
import { keySortParam, nextKeySort, parseKeySort, sortKeys, type KeySortField } from './keys-sort.js';
import { LimitMeters } from './limit-meters.js';
import { unpricedReachable } from './unpriced-models.js';

/** Keys drawn at a time (see `drawn` in KeysScreen). */
const KEYS_DRAWN = 200;

type KeyAction = { readonly text: string; readonly label: string; readonly icon: ReactNode; readonly run: () => void };

/**
 * The keys' names as their buttons say them: a name two keys share gets the key's prefix, so every
 * button's name is unique on the screen (`Revoke ci (gh-4f2a…)`).
 */
function buttonNames(keys: readonly ApiKeyRecord[]): (key: ApiKeyRecord) => string {
  const counts = new Map<string, number>();
  for (const key of keys) if (key.name !== null) counts.set(key.name, (counts.get(key.name) ?? 0) + 1);
  return (key) =>
    key.name === null ? key.key_prefix : (counts.get(key.name) ?? 0) > 1 ? `${key.name} (${key.key_prefix})` : key.name;
}

/** A key row's actions, each named with the key. */
function keyActions(
  key: ApiKeyRecord,
  name: string,
  open: Record<'edit' | 'limits' | 'rotate' | 'revoke', (key: ApiKeyRecord) => void>,
): KeyAction[] {
  return [
    { text: 'Edit', label: `Edit ${name}`, icon: <PencilIcon />, run: () => open.edit(key) },
    { text: 'Edit limits', label: `Edit limits of ${name}`, icon: <GaugeIcon />, run: () => open.limits(key) },
    { text: 'Rotate', label: `Rotate the secret of ${name}`, icon: <KeyIcon />, run: () => open.rotate(key) },
    { text: 'Revoke', label: `Revoke ${name}`, icon: <TrashIcon />, run: () => open.revoke(key) },
  ];
}

/** When the key's secret was last rotated, and while the old one still works, until when. */
function RotationNote({ apiKey }: { readonly apiKey: ApiKeyRecord }) {
  if (apiKey.rotated_at === null) return null;
  const until = apiKey.previous_key_expires_at;
  const oldStillWorks = until !== null && Date.parse(until) > Date.now() && apiKey.status === 'active';
  return (
    <time
      className="muted"
      title={`Rotated ${fullTime(apiKey.rotated_at)}${oldStillWorks ? `; the old secret works until ${fullTime(until)}` : ''}`}
      data-testid="key-rotated"
    >
      rotated {timeAgo(apiKey.rotated_at)}
      {oldStillWorks && `, old secret stops ${timeAgo(until)}`}
    </time>
  );
}

function RevokeDialog({
  apiKey,
  onClose,
  onRevoked,
  returnFocus,
}: {
  readonly apiKey: ApiKeyRecord;
  readonly onClose: () => void;
  readonly onRevoked: () => void;
  /** Where focus goes when the row and the table are gone (the filter's only match revoked). */
  readonly returnFocus: () => HTMLElement | null;
}) {
  const revoke = useRevokeKey();
  return (
    <Dialog
      testId="revoke-key-dialog"
      title={`Revoke “${apiKey.name ?? apiKey.key_prefix}”?`}
      description="Requests with this key fail with 401 from now on. This cannot be undone; issue a new key instead."
      onClose={onClose}
      returnFocus={returnFocus}
      footer={
        <ConfirmFooter
          onCancel={onClose}
          onConfirm={() =>
            revoke.mutate(apiKey.id, {
              onSuccess: () => {
                onRevoked();
                onClose();
                showToast(`Revoked ${apiKey.name ?? apiKey.key_prefix}`);
              },
            })
          }
          variant="danger"
          busy={revoke.isPending}
          testId="confirm-revoke"
        >
          Revoke key
        </ConfirmFooter>
      }
    >
      {revoke.error && <ErrorMessage error={revoke.error} title="Could not revoke the key" />}
    </Dialog>
  );
}

/**
 * Issued API keys: list with where each key's limits stand, issue (secret shown once), edit limits,
 * revoke. With hundreds of keys the filter finds one by name, id, prefix, user or team, and the headers
 * sort by name, created, last used, spend today or expiry; the filter, the sort and Show revoked are kept
 * in the address (`q`, `sort`, `revoked=1`).
 */
export function KeysScreen() {
  const { connection } = useSession();
  const params = new URLSearchParams(useLocation().search);
  const filter = params.get('q') ?? '';
  const showRevoked = params.get('revoked') === '1';
  const sort = parseKeySort(params.get('sort'));
  const spendToday = useKeySpendToday(sort?.field === 'spend_today');
  const moreStatusId = useId();
  /** The header button sorting by `field`, as the column's header shows it. */
  const sortBy = (field: KeySortField, label: string): ColumnSort => ({
    label,
    direction: sort?.field !== field ? undefined : sort.descending ? 'descending' : 'ascending',
    onSort: () => updateSearch({ sort: keySortParam(nextKeySort(sort, field)) }),
  });
  const filterRef = useFilterShortcut();
  const keys = useApiKeys(showRevoked);
  // No active key: whether any was issued and revoked decides between "no keys yet" and "none active".
  const withRevoked = useApiKeys(true, !showRevoked && keys.data?.data.length === 0);
  const secretOnItsWay = useKeySecretOnItsWay();
  const [issuing, setIssuing] = useState(false);
  const [issued, setIssued] = useState<ApiKeyCreated>();
  const [revoking, setRevoking] = useState<ApiKeyRecord>();
  const [revokedId, setRevokedId] = useState<string>();
  const [firstShownMore, setFirstShownMore] = useState<{ readonly key: string }>();
  const [editingLimits, setEditingLimits] = useState<ApiKeyRecord>();
  const [editingKey, setEditingKey] = useState<ApiKeyRecord>();
  const [rotating, setRotating] = useState<ApiKeyRecord>();
  const [tableFocus, setTableFocus] = useState(0);
  // Rows drawn at once: thousands of keys (four buttons each) made every keystroke and j take a third
  // of a second. The filter finds any key; Show more draws the next ones.
  const [drawn, setDrawn] = useState({ filter, count: KEYS_DRAWN });
  const drawnCount = drawn.filter === filter ? drawn.count : KEYS_DRAWN;
  const buttonName = useMemo(() => buttonNames(keys.data?.data ?? []), [keys.data]);
  const unpriced = useModelSettings().data?.unpriced_models ?? [];
  // A key's whole secret typed or pasted in the filter ("which key is this leaked secret?") is looked up
  // by its prefix, the only part of it the gateway keeps, and only that goes into the address: the
  // address is kept in the browser's history, shown in its address bar and copied with links.
  const [secretLookedUp, setSecretLookedUp] = useState<string>();
  const setFilter = (value: string): void => {
    const prefix = secretPrefix(value);
    setSecretLookedUp(prefix);
    updateSearch({ q: prefix ?? value });
  };
  // One that came in the address (a link made elsewhere) is taken out of it the same way.
  useEffect(() => {
    const prefix = secretPrefix(filter);
    if (prefix === undefined) return;
    setSecretLookedUp(prefix);
    updateSearch({ q: prefix });
  }, [filter]);

  const columns: Column<ApiKeyRecord>[] = [
    {
      header: 'Key',
      sort: [sortBy('name', 'Key')],
      cell: (key) => (
        <span className="cell-stack cell-clip" title={`${key.name ?? 'Unnamed key'}\n${key.key_prefix}\n${key.id}`}>
          <span className="cell-strong truncate">{key.name ?? 'Unnamed key'}</span>
          {/* Whose key it is stays in view where the Owner column gives way (see .col-inline-low). */}
          {(key.user ?? key.team) && (
            <span className="key-owner-inline col-inline-low" data-testid="key-owner-inline">
              {key.user ?? 'no user'}
              {key.team && <span className="muted"> · {key.team}</span>}
            </span>
          )}
          <span className="mono muted truncate">{key.key_prefix}</span>
          {/* The id is what collections, cache rules and the admin API name a key by. */}
          <span className="chip-row">
            <span className="mono muted truncate" data-testid="key-id">
              {key.id}
            </span>
            <CopyButton text={key.id} variant="ghost" what={`the id of ${buttonName(key)}`} />
          </span>
        </span>
      ),
    },
    {
      header: 'Owner',
      priority: 'low',
      cell: (key) => (
        <span className="cell-stack cell-clip" title={[key.user, key.team].filter(Boolean).join('\n') || undefined}>
          <span className="truncate">{key.user ?? '—'}</span>
          <span className="muted truncate">{key.team ?? ''}</span>
          {key.issuer && (
            <span className="muted" title={`subject ${key.subject ?? ''}`} data-testid="key-issuer">
              via {key.issuer}
            </span>
          )}
        </span>
      ),
    },
    {
      header: 'Access',
      priority: 'medium',
      cell: (key) => (
        <span className="cell-stack">
          <span className="chip-row">
            {key.scopes.map((scope) => (
              <Badge key={scope}>{scope}</Badge>
            ))}
          </span>
          {key.models?.length ? (
            <span className="mono muted" title={key.models.join('\n')}>
              {key.models.length === 1 ? key.models[0] : `${key.models.length} models`}
            </span>
          ) : (
            <span className="muted">All allowed models</span>
          )}
        </span>
      ),
    },
    {
      header: 'Limits now',
      sort: [sortBy('spend_today', 'Spend today')],
      cell: (key) => (
        <LimitMeters
          limits={key.limits}
          testId={`key-limits-${key.id}`}
          unpriced={unpricedReachable(key.models, unpriced)}
        />
      ),
    },
    {
      header: 'Status',
      // Each line of the status on one line: squeezed by the actions, "used 5 minutes ago" read a word a line.
      className: 'cell-nowrap',
      sort: [sortBy('created', 'Created'), sortBy('last_used', 'Last used'), sortBy('expires', 'Expires')],
      cell: (key) => (
        <span className="cell-stack">
          <KeyStatus status={key.status} />
          {sort?.field === 'spend_today' && spendToday.data && (
            <span data-testid="key-spend-today">{formatCost(spendToday.data.get(key.id) ?? 0)} today</span>
          )}
          {sort?.field === 'created' && (
            <time className="muted" title={fullTime(key.created_at)}>
              created {timeAgo(key.created_at)}
            </time>
          )}
          {key.status === 'active' && <BudgetSpent limits={key.limits ?? []} />}
          {key.last_used_at ? (
            <time className="muted" title={fullTime(key.last_used_at)}>
              used {timeAgo(key.last_used_at)}
            </time>
          ) : (
            <span className="muted">never used</span>
          )}
          {key.expires_at && (
            <time className="muted" title={fullTime(key.expires_at)}>
              {key.status === 'expired' ? 'expired' : 'expires'} {timeAgo(key.expires_at)}
            </time>
          )}
          <RotationNote apiKey={key} />
        </span>
      ),
    },
    {
      header: '',
      align: 'right',
      className: 'cell-actions',
      cell: (key) =>
        key.status !== 'revoked' && (
          <span className="row-actions key-actions">
            {/* Named with the key: a list of identical "Revoke" buttons says nothing out of context. */}
            {keyActions(key, buttonName(key), {
              edit: setEditingKey,
              limits: setEditingLimits,
              rotate: setRotating,
              revoke: setRevoking,
            }).map((action) => (
              <Button
                key={action.text}
                size="sm"
                variant="ghost"
                icon={action.icon}
                aria-label={action.label}
                title={action.label}
                onClick={action.run}
              >
                {action.text}
              </Button>
            ))}
          </span>
        ),
    },
  ];

  return (
    <>
      <PageHeader
        title="API keys"
        subtitle="Keys apps and people use to call the gateway. Only a hash is stored; a secret is shown once, when issued."
        actions={
          <>
            <label className="checkbox">
              <input
                type="checkbox"
                checked={showRevoked}
                onChange={(event) => updateSearch({ revoked: event.target.checked ? '1' : undefined })}
              />
              <span>Show revoked</span>
            </label>
            <Button variant="primary" icon={<PlusIcon />} onClick={() => setIssuing(true)} data-testid="issue-key">
              Issue key
            </Button>
          </>
        }
      />
      <PageBody>
        <QueryView
          query={keys}
          errorTitle="Could not load the keys"
          empty={(data) =>
            data.data.length === 0 &&
            (showRevoked ? (
              <NoKeysYet onIssue={() => setIssuing(true)} />
            ) : (
              <NoActiveKeys withRevoked={withRevoked} onIssue={() => setIssuing(true)} />
            ))
          }
        >
          {(data) => {
            const matching = sortKeys(
              data.data.filter((key) => keyMatches(key, filter)),
              sort,
              spendToday.data,
            );
            const rows = matching.length > drawnCount ? matching.slice(0, drawnCount) : matching;
            return (
              <>
                <div className="table-filter">
                  <TextInput
                    ref={filterRef}
                    className="filter-input"
                    aria-label="Filter keys"
                    placeholder="Filter: name, id, prefix, user, team  /"
                    title="↓ moves to the matching keys"
                    value={filter}
                    onChange={(event) => setFilter(event.target.value)}
                    onKeyDown={(event) => {
                      // An input method composing a character uses the arrows itself.
                      if (event.key !== 'ArrowDown' || event.nativeEvent.isComposing || rows.length === 0) return;
                      event.preventDefault();
                      setTableFocus((token) => token + 1);
                    }}
                  />
                  <span className="muted" role="status" data-testid="keys-count">
                    {matching.length === data.data.length
                      ? plural(data.data.length, 'key')
                      : `${formatInt(matching.length)} of ${plural(data.data.length, 'key')}`}
                  </span>
                  {secretLookedUp !== undefined && filter === secretLookedUp && (
                    <span className="muted" role="status" data-testid="keys-secret-note">
                      That was a key's secret: looked up by its prefix, and not kept (the address has only the prefix)
                    </span>
                  )}
                </div>
                {rows.length === 0 ? (
                  <EmptyState
                    title={`No key matches “${filter.trim()}”`}
                    action={
                      <Button variant="secondary" onClick={() => updateSearch({ q: undefined })}>
                        Clear the filter
                      </Button>
                    }
                  >
                    The filter looks in each key's name, id, prefix, user and team
                    {showRevoked ? '' : ' (revoked keys are hidden: Show revoked lists them too)'}.
                  </EmptyState>
                ) : (
                  <div className="key-table-container">
                    <DataTable
                      label="API keys"
                      testId="keys-table"
                      autoFocus
                      focusToken={tableFocus}
                      rows={rows}
                      columns={columns}
                      rowKey={(key) => key.id}
                      onOpen={(key) => key.status !== 'revoked' && setEditingLimits(key)}
                      focusRow={firstShownMore}
                      removedKey={revokedId}
                    />
                    {matching.length > rows.length && (
                      <div className="table-more">
                        <span className="muted" role="status" id={moreStatusId}>
                          Showing {formatInt(rows.length)} of {formatInt(matching.length)}; the filter finds any key
                        </span>
                        {/* One name whatever the count, which the status beside it says. */}
                        <Button
                          aria-describedby={moreStatusId}
                          title={`Shows the next ${formatInt(Math.min(KEYS_DRAWN, matching.length - rows.length))}`}
                          onClick={() => {
                            setDrawn({ filter, count: drawnCount + KEYS_DRAWN });
                            // Focus goes on to the first key added, where the keyboard reads on.
                            setFirstShownMore({ key: matching[rows.length]!.id });
                          }}
                        >
                          Show more keys
                        </Button>
                      </div>
                    )}
                  </div>
                )}
              </>
            );
          }}
        </QueryView>
      </PageBody>
      {issuing && (
        <IssueKeyDialog
          onClose={() => setIssuing(false)}
          onIssued={(key) => {
            setIssuing(false);
            setIssued(key);
          }}
        />
      )}
      {secretOnItsWay && !issued && <SecretOnItsWay />}
      {issued && (
        <KeySecretDialog issued={issued} gatewayUrl={connection.gatewayUrl} onClose={() => setIssued(undefined)} />
      )}
      {editingLimits && <EditKeyLimitsDialog apiKey={editingLimits} onClose={() => setEditingLimits(undefined)} />}
      {editingKey && <EditKeyDialog apiKey={editingKey} onClose={() => setEditingKey(undefined)} />}
      {rotating && (
        <RotateKeyDialog
          apiKey={rotating}
          onClose={() => setRotating(undefined)}
          onRotated={(rotated) => {
            setRotating(undefined);
            setIssued(rotated);
          }}
        />
      )}
      {revoking && (
        <RevokeDialog
          apiKey={revoking}
          onClose={() => setRevoking(undefined)}
          onRevoked={() => setRevokedId(revoking.id)}
          returnFocus={() => filterRef.current}
        />
      )}
    </>
  );
}
