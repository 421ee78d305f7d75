import type { DeploymentHealth } from '../../../../shared/gateway-api.js';
import { useDeploymentHealth, useDeployments } from '../../api/gateway-queries.js';
import { Badge, StatusDot, type Tone } from '../../components/badge.js';
import { DataTable } from '../../components/data-table.js';
import { ErrorMessage, Loading } from '../../components/feedback.js';
import { formatLatency } from '../../lib/format.js';

const HEALTH: Record<DeploymentHealth['state'], { readonly label: string; readonly tone: Tone }> = {
  healthy: { label: 'Healthy', tone: 'success' },
  degraded: { label: 'Degraded', tone: 'warning' },
  cooling_down: { label: 'Cooling down', tone: 'danger' },
  unused: { label: 'No traffic yet', tone: 'neutral' },
};

/** The deployments behind the model names, with the health seen in recent routing. */
export function DeploymentsPanel() {
  const deployments = useDeployments();
  const health = useDeploymentHealth();
  if (deployments.isPending) return <Loading />;
  if (deployments.isError) return <ErrorMessage error={deployments.error} title="Could not load the deployments" />;
  if (deployments.data.data.length === 0) {
    return <p className="muted">No explicit deployments: each model goes to the provider its name implies (openai/…, anthropic/…, demo/…). Add deployments in the configuration file to route one model to several upstreams with weights and fallback.</p>;
  }
  const healthOf = new Map(health.data?.data.map((entry) => [entry.id, entry]));
  return (
    <DataTable
      label="Deployments"
      testId="deployments-table"
      rows={deployments.data.data}
      rowKey={(deployment) => deployment.id}
      columns={[
        { header: 'Deployment', cell: (d) => <span className="cell-stack"><span className="mono cell-strong">{d.id}</span><span className="muted">{d.base_url ?? 'provider default'}</span></span> },
        { header: 'Model', cell: (d) => <span className="cell-stack"><span className="mono">{d.model}</span>{d.upstream_model !== d.model && <span className="muted mono">upstream {d.upstream_model}</span>}</span> },
        { header: 'Provider', cell: (d) => <Badge>{d.provider}</Badge> },
        { header: 'Weight', align: 'right', cell: (d) => d.weight },
        { header: 'Key', cell: (d) => (d.api_key_set ? 'set' : d.api_key_env ? <span className="mono">${d.api_key_env}</span> : <span className="muted">none</span>) },
        { header: 'Capabilities', cell: (d) => <span className="chip-row">{(d.capabilities ?? []).map((c) => <Badge key={c}>{c}</Badge>)}</span> },
        {
          header: 'Health',
          cell: (d) => {
            const entry = healthOf.get(d.id);
            if (!entry) return <span className="muted">—</span>;
            const state = HEALTH[entry.state];
            return (
              <span className="cell-title" title={entry.last_error ?? undefined}>
                <StatusDot tone={state.tone} />
                {state.label}
                {entry.avg_latency_ms !== null && <span className="muted">{formatLatency(entry.avg_latency_ms)}</span>}
              </span>
            );
          },
        },
      ]}
    />
  );
}
