import { Gauge, type Registry } from 'prom-client';
import type { DeploymentHealth } from '../../../shared/gateway-api.js';
import type { DeploymentHealthTracker } from '../model-registry/deployment-health.js';
import type { Deployment } from '../providers/types.js';
import { deploymentLabel } from './gateway-metrics.js';

/** Where the deployment gauges read the routing health: the deployments that can receive traffic now. */
export interface DeploymentHealthSource {
  readonly health: Pick<DeploymentHealthTracker, 'report'>;
  readonly registry: {
    routableDeployments(): readonly Deployment[];
    isAllowed(model: string): boolean;
  };
}

type Labels = 'model' | 'deployment';

/**
 * `gateway_deployment_cooled_down` and `gateway_deployment_consecutive_failures`, computed from the
 * health the router keeps when Prometheus scrapes (no cost per request). Only deployments that can
 * receive traffic now (configured ones and those derived for allowed models) have a series, so a
 * passthrough caller's model names never become labels, and a deployment a save removed disappears.
 */
export function readDeploymentHealth(registry: Registry, source: DeploymentHealthSource): void {
  new Gauge<Labels>({
    name: 'gateway_deployment_cooled_down',
    help: 'Deployments in a cooldown now (1: tried after the other deployments of their model until it ends), by model and deployment',
    labelNames: ['model', 'deployment'],
    registers: [registry],
    collect() {
      this.reset();
      for (const row of healthRows(source)) this.set(row.labels, row.health.state === 'cooling_down' ? 1 : 0);
    },
  });
  new Gauge<Labels>({
    name: 'gateway_deployment_consecutive_failures',
    help: 'Failures in a row of each deployment since its last success (those that count toward its cooldown), by model and deployment',
    labelNames: ['model', 'deployment'],
    registers: [registry],
    collect() {
      this.reset();
      for (const row of healthRows(source)) this.set(row.labels, row.health.consecutive_failures);
    },
  });
}

interface HealthRow {
  readonly labels: Readonly<Record<Labels, string>>;
  readonly health: DeploymentHealth;
}

/** The health of each deployment that can receive traffic, with its metric labels. */
function healthRows(source: DeploymentHealthSource): HealthRow[] {
  const routable = source.registry.routableDeployments();
  const byId = new Map(routable.map((deployment) => [deployment.id, deployment]));
  const out: HealthRow[] = [];
  for (const health of source.health.report(routable)) {
    const deployment = byId.get(health.id);
    // The report also shows deployments no longer routable (passthrough ones among them): not series.
    if (deployment === undefined) continue;
    out.push({
      labels: { model: health.model, deployment: deploymentLabel(deployment, source.registry) },
      health,
    });
  }
  return out;
}
