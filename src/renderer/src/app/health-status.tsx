import { useServiceHealth, type ServiceHealth } from '../api/health.js';
import type { Service } from '../api/http.js';
import { StatusDot, type Tone } from '../components/badge.js';
import { readinessCheckLabel } from '../lib/readiness-labels.js';

const LABEL: Record<ServiceHealth['state'], string> = {
  ok: 'Healthy',
  unavailable: 'Not ready',
  unreachable: 'Unreachable',
};
const TONE: Record<ServiceHealth['state'], Tone> = { ok: 'success', unavailable: 'warning', unreachable: 'danger' };

/** The status word and tone of a service's health query. */
export function useHealthSummary(service: Service): {
  readonly label: string;
  readonly tone: Tone;
  readonly detail: string;
} {
  const health = useServiceHealth(service);
  if (!health.data) return { label: 'Checking…', tone: 'neutral', detail: '' };
  const failing = Object.entries(health.data.checks)
    .filter(([, state]) => state !== 'ok')
    .map(([name]) => readinessCheckLabel(name));
  return {
    label: LABEL[health.data.state],
    tone: TONE[health.data.state],
    detail: failing.length ? `${failing.join(', ')} unavailable` : '',
  };
}

/** One line per service in the sidebar: dot, name, status. */
export function HealthLine({ service, name }: { readonly service: Service; readonly name: string }) {
  const summary = useHealthSummary(service);
  return (
    <div
      className="health-line"
      data-testid={`health-${service}`}
      data-state={summary.tone}
      title={summary.detail || undefined}
    >
      <StatusDot tone={summary.tone} />
      <span className="health-line-name">{name}</span>
      <span className="health-line-state">{summary.label}</span>
    </div>
  );
}
