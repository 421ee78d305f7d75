import { useState } from 'react';
import type { DeploymentDefaults, DeploymentHealth } from '../../../../shared/gateway-api.js';
import { useDeploymentHealth } from '../../api/gateway-queries.js';
import { Badge, StatusDot, type Tone } from '../../components/badge.js';
import { Button } from '../../components/button.js';
import { DataTable } from '../../components/data-table.js';
import { CloseIcon, PlusIcon } from '../../components/icons.js';
import { clockTime, formatLatency, plural, timeAgo } from '../../lib/format.js';
import { ConnectionTest, DeploymentDialog } from './deployment-dialog.js';
import { emptyDraft, toDeploymentInput, type DeploymentDraft } from './deployment-form.js';

const HEALTH: Record<DeploymentHealth['state'], { readonly label: string; readonly tone: Tone }> = {
  healthy: { label: 'Healthy', tone: 'success' },
  degraded: { label: 'Degraded', tone: 'warning' },
  cooling_down: { label: 'Cooling down', tone: 'danger' },
  unused: { label: 'No answer yet', tone: 'neutral' },
};

function HealthCell({
  draft,
  health,
}: {
  readonly draft: DeploymentDraft;
  readonly health: DeploymentHealth | undefined;
}) {
  if (!draft.id) return <span className="muted">Not saved yet</span>;
  if (!health) return <span className="muted">—</span>;
  const state = HEALTH[health.state];
  // Why a deployment is out of favour, in words on the row: a tooltip reaches neither the keyboard
  // nor a screen reader, and the cooldown's end says when it will be tried first again.
  const troubled = health.state === 'degraded' || health.state === 'cooling_down';
  const error = troubled ? health.last_error : null;
  return (
    <span className="cell-stack health-cell">
      <span className="cell-title health-state">
        <StatusDot tone={state.tone} />
        {state.label}
        {/* Named, so it does not read as how long the state has lasted. */}
        {health.avg_latency_ms !== null && <span className="muted">avg {formatLatency(health.avg_latency_ms)}</span>}
      </span>
      {troubled && (
        <span className="muted">
          {`${plural(health.consecutive_failures, 'failure')} in a row` +
            (health.cooldown_until !== null
              ? `, tried after the others until ${clockTime(health.cooldown_until)}`
              : '')}
        </span>
      )}
      {troubled && health.failing_since && (
        // Since when, so an operator tells a blip from an outage.
        <span className="muted" data-testid="failing-since">
          {`Failing since ${clockTime(health.failing_since)} (${timeAgo(health.failing_since)}); ` +
            (health.last_success_at ? `last answered ${clockTime(health.last_success_at)}` : 'never answered yet')}
        </span>
      )}
      {error !== null && (
        <span className="muted health-error" title={error}>
          {error}
        </span>
      )}
    </span>
  );
}

/** Where a deployment's key comes from; a stored key is shown as such, never as its value. */
function KeyCell({ draft }: { readonly draft: DeploymentDraft }) {
  if (draft.apiKeyEnv) return <span className="mono">${draft.apiKeyEnv}</span>;
  if (draft.apiKey) return <Badge tone="accent">new key</Badge>;
  if (draft.apiKeySet) return <span>stored</span>;
  return <span className="muted">none</span>;
}

/**
 * What names a row in its buttons: the id once saved; before that the model and what tells the row
 * apart from other new rows of that model (its base URL, else its place among the new rows), since two
 * deployments of one model are the weighted or fallback case and both buttons would read the same.
 */
function rowName(draft: DeploymentDraft, drafts: readonly DeploymentDraft[]): string {
  if (draft.id) return draft.id;
  const fresh = drafts.filter((item) => !item.id);
  const where = (item: DeploymentDraft): string => item.baseUrl || 'provider default';
  const sameModel = fresh.filter((item) => item.model === draft.model);
  if (sameModel.filter((item) => where(item) === where(draft)).length === 1)
    return `${draft.model}, new, ${where(draft)}`;
  return `${draft.model}, new deployment ${fresh.indexOf(draft) + 1}`;
}

/**
 * The deployments behind the model names, as part of the models draft (add, edit, remove; saved with
 * the other model settings), with the health seen in recent routing.
 */
export function DeploymentsPanel({
  drafts,
  defaults,
  models,
  onChange,
}: {
  readonly drafts: readonly DeploymentDraft[];
  /** What an empty timeout or retry count stands for. */
  readonly defaults: DeploymentDefaults;
  readonly models: readonly string[];
  readonly onChange: (drafts: DeploymentDraft[]) => void;
}) {
  const health = useDeploymentHealth();
  const [editing, setEditing] = useState<DeploymentDraft>();
  const healthOf = new Map(health.data?.data.map((entry) => [entry.id, entry]));
  const done = (draft: DeploymentDraft): void => {
    const index = drafts.findIndex((item) => item.key === draft.key);
    onChange(index === -1 ? [...drafts, draft] : drafts.map((item, i) => (i === index ? draft : item)));
    setEditing(undefined);
  };
  return (
    <>
      {drafts.length === 0 ? (
        <p className="muted">
          No explicit deployments: each model goes to the provider its name implies (openai/…, anthropic/…, demo/…). Add
          one to route a model to a server of your choice, or to several upstreams with weights and fallback.
        </p>
      ) : (
        <DataTable
          label="Deployments"
          testId="deployments-table"
          rows={drafts}
          rowKey={(d) => d.key}
          onOpen={setEditing}
          columns={[
            {
              header: 'Deployment',
              cell: (d) => (
                <span className="cell-stack">
                  <span className="mono cell-strong">{d.id || 'new'}</span>
                  <span className="muted">{d.baseUrl || 'provider default'}</span>
                </span>
              ),
            },
            {
              header: 'Model',
              cell: (d) => (
                <span className="cell-stack">
                  <span className="mono">{d.model}</span>
                  {d.upstreamModel && d.upstreamModel !== d.model && (
                    <span className="muted mono">upstream {d.upstreamModel}</span>
                  )}
                </span>
              ),
            },
            {
              header: 'Provider',
              priority: 'medium',
              cell: (d) => (d.provider ? <Badge>{d.provider}</Badge> : <span className="muted">inferred</span>),
            },
            { header: 'Weight', align: 'right', priority: 'low', cell: (d) => d.weight || '1' },
            {
              header: 'Timeout',
              align: 'right',
              priority: 'low',
              cell: (d) =>
                d.timeoutMs ? (
                  `${Number(d.timeoutMs) / 1000} s`
                ) : (
                  <span className="muted">default ({defaults.timeout_ms / 1000} s)</span>
                ),
            },
            {
              header: 'Retries',
              align: 'right',
              priority: 'low',
              cell: (d) =>
                d.maxRetries ? d.maxRetries : <span className="muted">default ({defaults.max_retries})</span>,
            },
            { header: 'Key', cell: (d) => <KeyCell draft={d} /> },
            {
              header: 'Health',
              // Health seen in routing, and beside it a test on demand: both say whether the upstream works.
              cell: (d) => (
                <span className="cell-stack">
                  <HealthCell draft={d} health={healthOf.get(d.id)} />
                  <ConnectionTest
                    text="Test connection"
                    label={`Test connection of ${rowName(d, drafts)}`}
                    invalid="Open the deployment to fix its fields first."
                    prepare={() => toDeploymentInput(d).input}
                    compact
                  />
                </span>
              ),
            },
            {
              header: '',
              align: 'right',
              className: 'cell-actions',
              cell: (d) => (
                <span className="row-actions">
                  <Button
                    size="sm"
                    variant="ghost"
                    onClick={() => setEditing(d)}
                    aria-label={`Edit ${rowName(d, drafts)}`}
                  >
                    Edit
                  </Button>
                  <button
                    type="button"
                    className="icon-button"
                    aria-label={`Remove deployment ${rowName(d, drafts)}`}
                    onClick={() => onChange(drafts.filter((item) => item.key !== d.key))}
                  >
                    <CloseIcon size={14} />
                  </button>
                </span>
              ),
            },
          ]}
        />
      )}
      <div className="form-row">
        <Button size="sm" icon={<PlusIcon />} onClick={() => setEditing(emptyDraft())} data-testid="add-deployment">
          Add deployment
        </Button>
      </div>
      {editing && (
        <DeploymentDialog
          initial={editing}
          name={rowName(editing, drafts)}
          models={models}
          defaults={defaults}
          onClose={() => setEditing(undefined)}
          onDone={done}
        />
      )}
    </>
  );
}
