import type { FastifyInstance } from 'fastify';
import { databaseReady, type DatabaseHandle } from '../db/connection.js';
import { databaseFailureCode } from './database-errors.js';
import type { NotReady, Readiness } from '../../shared/health-api.js';

/** A named readiness check: throws or returns false when the dependency is unavailable. */
export type ReadinessCheck = () => boolean | Promise<boolean>;

/**
 * The `database` check of a service on `handle`: every request the service answers with a failure of
 * the database (a full disk, a damaged file) is noted on the handle, which both services share, so
 * each reports the database unavailable until a probe write succeeds, and after a damaged file
 * (SQLITE_CORRUPT, SQLITE_NOTADB) until a `PRAGMA quick_check`, at most one a minute, passes first.
 */
export function databaseReadiness(app: FastifyInstance, handle: DatabaseHandle): ReadinessCheck {
  app.addHook('onError', async (_request, _reply, error) => {
    const code = databaseFailureCode(error);
    if (code !== undefined) handle.noteFailure(code);
  });
  return () => databaseReady(handle);
}

/** Registers `/healthz` (liveness) and `/readyz` (every check passes, else 503 naming the failing one). */
export function registerHealthRoutes(
  app: FastifyInstance,
  options: { checks: Record<string, ReadinessCheck>; liveness: 'json' | 'text' },
): void {
  app.get('/healthz', { config: { skipHttpMetrics: true } }, async (_request, reply) =>
    options.liveness === 'text' ? reply.type('text/plain; charset=utf-8').send('ok') : { status: 'ok' },
  );
  app.get('/readyz', { config: { skipHttpMetrics: true } }, async (_request, reply) => {
    const checks: Readiness['checks'] = {};
    for (const [name, check] of Object.entries(options.checks)) {
      let ok = false;
      try {
        ok = (await check()) !== false;
      } catch {
        ok = false;
      }
      checks[name] = ok ? 'ok' : 'unavailable';
    }
    const ready = Object.values(checks).every((state) => state === 'ok');
    if (!ready) {
      const failing = Object.keys(checks).filter((name) => checks[name] !== 'ok');
      return reply.code(503).send({
        status: 'unavailable',
        checks,
        error: { type: 'service_unavailable', message: `not ready: ${failing.join(', ')} unavailable`, code: 503 },
      } satisfies NotReady);
    }
    return { status: 'ok', checks } satisfies Readiness;
  });
}
