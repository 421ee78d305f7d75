import type { DeploymentHealth } from '../../../shared/gateway-api.js';
import { redactSecrets } from '../../../shared/secret-shapes.js';
import type { Deployment } from '../providers/types.js';

/** When a deployment is tried last for a while (LiteLLM's cooldown): `gateway.cooldown_*` of the configuration. */
export interface CooldownSettings {
  /** Failures in a row that start a cooldown. */
  readonly afterFailures: number;
  /** How long it lasts; 0 never cools a deployment down. */
  readonly ms: number;
}

/** Where a deployment entering and leaving cooldown is said: the gateway's logger (warn, info). */
export interface DeploymentHealthLog {
  readonly warn: (message: string, details: Record<string, unknown>) => void;
  readonly info: (message: string, details: Record<string, unknown>) => void;
}

const DEFAULT_COOLDOWN: CooldownSettings = { afterFailures: 3, ms: 30_000 };
/** Passthrough calls derive a deployment per model name; a bound keeps arbitrary names from growing the map. */
const MAX_TRACKED = 1000;

interface Stats {
  /** The version of the deployment these outcomes are of: a save may point its id at another upstream. */
  upstream: Deployment;
  model: string;
  provider: string;
  requests: number;
  successes: number;
  failures: number;
  consecutiveFailures: number;
  lastStatus: number | null;
  lastError: string | null;
  lastUsedAt: number | null;
  lastSuccessAt: number | null;
  /** When the current run of failures in a row began (null while it answers): how long it has been down. */
  failingSince: number | null;
  lastLatencyMs: number | null;
  totalLatencyMs: number;
  cooldownUntil: number;
  /**
   * When the one call that probes a deployment whose cooldown ended began (0: none under way). Until it
   * answers, the deployment stays last: every request arriving at the end of a cooldown would otherwise
   * try it at once, and all of them wait on an upstream that may still be down.
   */
  probeSince: number;
  /** Attempts a request's deadline cut, and when the last was. */
  deadlineCuts: number;
  lastDeadlineCutAt: number | null;
  /** What the deadline cuts since its last success waited in all (see deadlineCut). */
  silentUnderCutsMs: number;
}

/** Whether two versions of a deployment call the same upstream the same way. */
function sameUpstream(a: Deployment, b: Deployment): boolean {
  return (
    a.provider === b.provider &&
    a.baseUrl === b.baseUrl &&
    a.upstreamModel === b.upstreamModel &&
    a.apiKey === b.apiKey &&
    a.apiVersion === b.apiVersion
  );
}

/** The mean latency of the calls that answered or failed (a call its client left has none); null before any. */
function averageLatencyMs(s: Stats): number | null {
  const timed = s.successes + s.failures;
  return timed > 0 ? Math.round((s.totalLatencyMs / timed) * 100) / 100 : null;
}

/** The longest cooldown an upstream's `Retry-After` sets: a day's figure is not held to. */
const MAX_ASKED_COOLDOWN_MS = 60 * 60 * 1000;

/** Per-deployment outcomes since the start, for routing (cooldowns) and the health endpoint. */
export class DeploymentHealthTracker {
  private readonly stats = new Map<string, Stats>();
  /**
   * Versions of deployments a save removed or pointed at another upstream. A call made on one of them
   * can end after the save (a timeout, a stream); what it did is the old upstream's, never the new one's.
   */
  private readonly retired = new WeakSet<Deployment>();
  /**
   * Ids a save removed: left out of the report (a script alerting on it must not see a phantom), their
   * stats kept in case the same deployment is saved again.
   */
  private readonly removed = new Set<string>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly cooldown: CooldownSettings = DEFAULT_COOLDOWN,
    private readonly log?: DeploymentHealthLog,
  ) {}

  /** Records a successful upstream call. */
  success(deployment: Deployment, latencyMs: number, status = 200): void {
    const s = this.entry(deployment);
    if (s === undefined) return;
    // Cooled down before (its cooldown over or cut short by this answer): it serves again.
    if (s.cooldownUntil !== 0)
      this.log?.info(`deployment ${deployment.id} answered again; its cooldown is over`, { deployment: deployment.id });
    s.requests += 1;
    s.successes += 1;
    s.consecutiveFailures = 0;
    s.lastStatus = status;
    s.lastError = null;
    s.lastUsedAt = this.now();
    s.lastSuccessAt = s.lastUsedAt;
    s.failingSince = null;
    s.lastLatencyMs = latencyMs;
    s.totalLatencyMs += latencyMs;
    s.cooldownUntil = 0;
    s.probeSince = 0;
    s.silentUnderCutsMs = 0;
  }

  /**
   * Records a call its client left (or the gateway's shutdown cut) before it ended, which says nothing
   * of the deployment: counted among its requests, neither a success nor a failure, so it neither ends
   * a cooldown nor clears the last error.
   */
  abandoned(deployment: Deployment): void {
    const s = this.entry(deployment);
    if (s === undefined) return;
    s.requests += 1;
    s.lastUsedAt = this.now();
  }

  /**
   * Records a failed upstream call (`status` 0 for connection errors and timeouts). Only a failure that
   * `blamesDeployment` counts toward the cooldown; one caused by the request itself is shown (failures,
   * last status and error) without touching the run of failures in a row. `unavailableMs`: how long the
   * upstream said it will not serve (a `Retry-After` longer than the gateway waits), which cools the
   * deployment down for that long at once, at most an hour, rather than after failures in a row.
   */
  failure(
    deployment: Deployment,
    latencyMs: number,
    status: number,
    message: string,
    blamesDeployment = true,
    unavailableMs = 0,
  ): void {
    const s = this.entry(deployment);
    if (s === undefined) return;
    s.requests += 1;
    s.failures += 1;
    s.lastStatus = status || null;
    // Redacted before cutting, so a cut cannot leave half a key that no longer looks like one.
    s.lastError = redactSecrets(message).slice(0, 500);
    s.lastUsedAt = this.now();
    s.lastLatencyMs = latencyMs;
    s.totalLatencyMs += latencyMs;
    s.probeSince = 0;
    if (!blamesDeployment) return;
    const now = this.now();
    const coolingBefore = s.cooldownUntil > now;
    if (s.consecutiveFailures === 0) s.failingSince = now;
    s.consecutiveFailures += 1;
    if (s.consecutiveFailures >= this.cooldown.afterFailures && this.cooldown.ms > 0)
      s.cooldownUntil = now + this.cooldown.ms;
    if (unavailableMs > 0 && this.cooldown.ms > 0)
      s.cooldownUntil = Math.max(s.cooldownUntil, now + Math.min(unavailableMs, MAX_ASKED_COOLDOWN_MS));
    if (!coolingBefore && s.cooldownUntil > now) this.logCooldown(deployment.id, s);
  }

  /**
   * Records an attempt a request's deadline cut after `waitedMs` without an answer; true when it counted
   * as a failure. A cut is the caller's short wait, within the deployment's own `timeout_ms`, so by
   * itself it is no failure: a client's short deadline leaves a healthy deployment alone. But cuts add
   * up their waits until the deployment next succeeds: once it has been silent through cuts for its
   * whole `timeout_ms` (what one call would have been failed for), that cut and each one after it until
   * a success count as a timeout, so a hung deployment that every deadline cuts still cools down.
   */
  deadlineCut(deployment: Deployment, waitedMs: number): boolean {
    const s = this.entry(deployment);
    if (s === undefined) return false;
    s.deadlineCuts += 1;
    s.lastDeadlineCutAt = this.now();
    s.silentUnderCutsMs += waitedMs;
    if (deployment.timeoutMs <= 0 || s.silentUnderCutsMs < deployment.timeoutMs) return false;
    this.failure(
      deployment,
      waitedMs,
      0,
      `no answer through request deadlines for ${Math.round(s.silentUnderCutsMs)} ms in all since its last success, at least its timeout_ms (${deployment.timeoutMs}); this attempt was cut after ${Math.round(waitedMs)} ms`,
    );
    return true;
  }

  /** One line as a deployment starts a cooldown (not for each failure during it). */
  private logCooldown(id: string, s: Stats): void {
    const until = new Date(s.cooldownUntil).toISOString();
    this.log?.warn(
      `deployment ${id} is tried last until ${until}, after ${s.consecutiveFailures} failure(s) in a row: ${s.lastError}`,
      { deployment: id, consecutive_failures: s.consecutiveFailures, last_error: s.lastError, cooldown_until: until },
    );
  }

  /**
   * Forgets what the deployments did whose upstream changed in a save (another provider, address,
   * model, key or API version under the same id, or an id saved again after it was removed): their
   * failures and cooldown were the old upstream's, and a deployment an admin just fixed would otherwise
   * wait out that cooldown before any request reached it. Calls still under way on the old upstream
   * are not counted when they end.
   */
  forgetChanged(before: readonly Deployment[], after: readonly Deployment[]): void {
    const saved = new Map(after.map((deployment) => [deployment.id, deployment]));
    for (const old of before) {
      const now = saved.get(old.id);
      if (now === undefined || !sameUpstream(old, now)) this.retired.add(old);
      if (now === undefined) this.removed.add(old.id);
    }
    for (const deployment of after) {
      this.removed.delete(deployment.id);
      const s = this.stats.get(deployment.id);
      if (s !== undefined && !sameUpstream(s.upstream, deployment)) this.stats.delete(deployment.id);
    }
  }

  /**
   * True while a deployment that kept failing should be tried after the others: during its cooldown,
   * and after it while the one call probing it has not answered (a probe older than a cooldown, whose
   * outcome was never recorded, no longer holds it back).
   */
  coolingDown(id: string): boolean {
    const s = this.stats.get(id);
    if (s === undefined || s.cooldownUntil === 0) return false;
    const now = this.now();
    return s.cooldownUntil > now || (s.probeSince !== 0 && now - s.probeSince < this.cooldown.ms);
  }

  /**
   * A call to the deployment starts: the first after a cooldown ended is its probe, and the others
   * try it last until the probe answers.
   */
  calling(deployment: Deployment): void {
    const s = this.current(deployment);
    if (s === undefined || s.cooldownUntil === 0) return;
    const now = this.now();
    if (s.cooldownUntil <= now && (s.probeSince === 0 || now - s.probeSince >= this.cooldown.ms)) s.probeSince = now;
  }

  /**
   * A call to the deployment is over, however it ended: answered (a stream's outcome comes later,
   * when it ends), failed, or left by its client. A probe no longer holds the others back.
   */
  called(deployment: Deployment): void {
    const s = this.current(deployment);
    if (s !== undefined) s.probeSince = 0;
  }

  /** The stats of this version of a deployment: not those of one a save retired or pointed elsewhere. */
  private current(deployment: Deployment): Stats | undefined {
    const s = this.stats.get(deployment.id);
    return s !== undefined && !this.retired.has(deployment) && sameUpstream(s.upstream, deployment) ? s : undefined;
  }

  /** Health of the given deployments (those never used report `unused`). */
  report(deployments: readonly Deployment[]): DeploymentHealth[] {
    const seen = new Set<string>();
    const out: DeploymentHealth[] = [];
    for (const deployment of deployments) {
      if (seen.has(deployment.id)) continue;
      seen.add(deployment.id);
      out.push(this.view(deployment.id, this.stats.get(deployment.id), deployment));
    }
    // Those derived for passthrough calls, and those of models not allowed now, still show what they did.
    for (const [id, s] of this.stats)
      if (!seen.has(id) && !this.removed.has(id)) out.push(this.view(id, s, { model: s.model, provider: s.provider }));
    return out;
  }

  private view(id: string, s: Stats | undefined, deployment: { model: string; provider: string }): DeploymentHealth {
    const now = this.now();
    const state: DeploymentHealth['state'] =
      // Calls that were all left by their clients say nothing yet of how it answers.
      !s || s.successes + s.failures === 0
        ? 'unused'
        : s.cooldownUntil > now
          ? 'cooling_down'
          : s.consecutiveFailures > 0
            ? 'degraded'
            : 'healthy';
    return {
      id,
      model: deployment.model,
      provider: deployment.provider,
      state,
      requests: s?.requests ?? 0,
      successes: s?.successes ?? 0,
      failures: s?.failures ?? 0,
      consecutive_failures: s?.consecutiveFailures ?? 0,
      last_status: s?.lastStatus ?? null,
      last_error: s?.lastError ?? null,
      last_used_at: s?.lastUsedAt ? new Date(s.lastUsedAt).toISOString() : null,
      last_success_at: s?.lastSuccessAt ? new Date(s.lastSuccessAt).toISOString() : null,
      failing_since: s?.failingSince ? new Date(s.failingSince).toISOString() : null,
      last_latency_ms: s?.lastLatencyMs ?? null,
      avg_latency_ms: s !== undefined ? averageLatencyMs(s) : null,
      cooldown_until: s && s.cooldownUntil > now ? new Date(s.cooldownUntil).toISOString() : null,
      deadline_cuts: s?.deadlineCuts ?? 0,
      last_deadline_cut_at: s?.lastDeadlineCutAt ? new Date(s.lastDeadlineCutAt).toISOString() : null,
    };
  }

  /** The outcomes of a deployment; undefined for a version a save has replaced, which no longer counts. */
  private entry(deployment: Deployment): Stats | undefined {
    if (this.retired.has(deployment)) return undefined;
    let s = this.stats.get(deployment.id);
    if (!s) {
      const tracked = this.stats.size < MAX_TRACKED;
      s = {
        upstream: deployment,
        model: deployment.model,
        provider: deployment.provider,
        requests: 0,
        successes: 0,
        failures: 0,
        consecutiveFailures: 0,
        lastStatus: null,
        lastError: null,
        lastUsedAt: null,
        lastSuccessAt: null,
        failingSince: null,
        lastLatencyMs: null,
        totalLatencyMs: 0,
        cooldownUntil: 0,
        probeSince: 0,
        deadlineCuts: 0,
        lastDeadlineCutAt: null,
        silentUnderCutsMs: 0,
      };
      if (tracked) this.stats.set(deployment.id, s);
    }
    return s;
  }
}
