import type { DeploymentInput, DeploymentTest, DeploymentTestResult } from '../../../shared/gateway-api.js';
import type { AuditRepository } from '../accounting/audit.repository.js';
import { recordAction } from '../accounting/record-action.js';
import { GatewayError } from '../gateway-error.js';
import { toDeploymentView } from '../model-registry/deployment.js';
import { deploymentListProblems } from '../model-registry/deployment-list-check.js';
import type { ModelRegistry } from '../model-registry/model-registry.js';
import { probeDeployment } from '../providers/deployment-probe.js';
import type { Deployment } from '../providers/types.js';
import { UpstreamPools } from '../providers/upstream-pools.js';
import type { GatewayEventBus } from '../traffic/event-bus.js';
import type { AdminActor } from './admin.service.js';

/** What the tester works with: the gateway's own registry, pools and audit trail. */
export interface DeploymentTesterOptions {
  readonly registry: ModelRegistry;
  readonly pools: UpstreamPools;
  readonly audit: AuditRepository;
  readonly bus: GatewayEventBus;
}

/** A deployment resolved for a test, and where its key came from (in words, never the key). */
interface TestTarget {
  readonly deployment: Deployment;
  readonly keyLabel: string;
  readonly saved: boolean;
}

/**
 * `POST /internal/deployments/test`: one small real call to a deployment's provider, saved or still a
 * form. Nothing the gateway routes with changes (no health, no usage, no saved list); the test is
 * audited as `deployments.test`, without the key.
 */
export class DeploymentTester {
  constructor(private readonly options: DeploymentTesterOptions) {}

  /** Tests the deployment the body describes; a body the admin API would refuse on save is refused the same way. */
  async test(body: DeploymentTest, actor: AdminActor): Promise<DeploymentTestResult> {
    const { mode: asked, ...input } = body;
    const target = input.model === undefined ? this.saved(input.id!) : this.unsaved({ ...input, model: input.model });
    const mode = asked ?? 'models';
    // A form's address may never be routed to: its connections go with the test, so trying addresses
    // leaves no pool open. A saved deployment is tested over the pool its requests use.
    const pools = target.saved ? this.options.pools : new UpstreamPools(this.options.pools.loopMark);
    const result = await probeDeployment(target.deployment, pools, {
      mode,
      requestId: actor.requestId,
      keyLabel: target.keyLabel,
    }).finally(() => {
      if (pools !== this.options.pools) void pools.close();
    });
    const { deployment } = target;
    const answer: DeploymentTestResult = {
      ok: result.ok,
      status: result.status,
      latency_ms: result.latencyMs,
      model_listed: result.modelListed,
      mode: result.mode,
      message: result.message,
    };
    recordAction(this.options.audit, this.options.bus, {
      createdAt: Date.now(),
      actor: 'master',
      action: 'deployments.test',
      target: target.saved ? deployment.id : null,
      requestId: actor.requestId,
      details: {
        id: input.id ?? null,
        saved: target.saved,
        // As the deployments' own audit events show one: whether a key is set, never the key.
        deployment: toDeploymentView(deployment),
        ok: answer.ok,
        status: answer.status,
        model_listed: answer.model_listed,
        mode: answer.mode,
      },
    });
    return answer;
  }

  /** A saved deployment as it is routed, its stored key included. */
  private saved(id: string): TestTarget {
    const deployment = this.options.registry.deployments().find((candidate) => candidate.id === id);
    if (deployment === undefined)
      throw new GatewayError(
        'not_found',
        `id: no saved deployment with id '${id}' (send the whole deployment to test one not saved)`,
      );
    return { deployment, keyLabel: keyLabel(deployment, 'the stored key'), saved: true };
  }

  /**
   * A form resolved as a save would resolve it, and checked by the same rules. Sent with a saved id and
   * neither key nor key variable, it takes the key stored for that id, as a save keeps it: only at the
   * same address, so a test never sends a stored key anywhere else.
   */
  private unsaved(input: DeploymentInput): TestTarget {
    const { resolved, problems } = deploymentListProblems([input], this.options.registry.adminDeploymentSources());
    if (problems.length > 0) throw new GatewayError('invalid', problems[0]!.replace(/^deployments\[0\]\./, ''));
    const deployment = resolved[0]!;
    if (input.api_key !== undefined) return { deployment, keyLabel: 'the key given', saved: false };
    if (input.api_key_env !== undefined)
      return { deployment, keyLabel: keyLabel(deployment, 'the key given'), saved: false };
    const stored = this.options.registry.deployments().find((candidate) => candidate.id === input.id);
    const keepsKey =
      input.id !== undefined &&
      stored?.apiKey !== undefined &&
      stored.apiKeyEnv === undefined &&
      stored.baseUrl === deployment.baseUrl;
    return keepsKey
      ? { deployment: { ...deployment, apiKey: stored.apiKey }, keyLabel: 'the stored key', saved: false }
      : { deployment, keyLabel: keyLabel(deployment, "the provider's configured key"), saved: false };
  }
}

/** Where a deployment's key comes from, in words: its variable, when it names one. */
function keyLabel(deployment: Deployment, otherwise: string): string {
  return deployment.apiKeyEnv !== undefined ? `the key from $${deployment.apiKeyEnv}` : otherwise;
}
