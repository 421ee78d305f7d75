import type { FastifyPluginAsync } from 'fastify';
import type { Registry } from 'prom-client';
import { bodyOnlyQuerySchema } from '../../../shared/store-api.js';
import type { Config } from '../../config/schema.js';
import type { DatabaseHandle } from '../../db/connection.js';
import type { RevisionEvents } from '../engine/revision-events.js';
import { StoreEngine } from '../engine/store-engine.js';
import { createStoreMetrics } from '../store-metrics.js';
import { applyRoutes } from './apply.routes.js';
import { branchRoutes } from './branches.routes.js';
import { checkpointRoutes } from './checkpoints.routes.js';
import { diffRoutes } from './diff.routes.js';
import { gcRoutes } from './gc.routes.js';
import { logRoutes } from './log.routes.js';
import { mergeRoutes } from './merge.routes.js';
import { namespaceRoutes } from './namespaces.routes.js';
import type { StoreRouteDeps } from './operation.js';
import { restoreRoutes } from './restore.routes.js';
import { replayRoutes } from './replay.routes.js';
import { rollbackRoutes } from './rollback.routes.js';
import { stateRoutes } from './state.routes.js';
import { tokenRoutes } from './token.routes.js';

/** Options the store app passes to the store routes. */
export interface StoreRoutesOptions {
  readonly database: DatabaseHandle;
  readonly registry: Registry;
  readonly limits?: Partial<Config['store']['limits']>;
  /** Told about every new revision (in-process followers). */
  readonly events?: RevisionEvents;
}

/** Registers every store resource's routes over one engine and the store's domain metrics. */
export const storeRoutes: FastifyPluginAsync<StoreRoutesOptions> = async (app, options) => {
  // Responses are typed against their zod schemas at compile time; re-checking them at run time would
  // copy every document of a 10,000-document diff or log page through zod. Requests are still validated.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  const engine = new StoreEngine(options.database.sqlite, {
    limits: options.limits,
    events: options.events,
    sweep: { onError: (error) => app.log.error({ err: error }, 'store: sweeping unreferenced contents failed') },
  });
  // Contents listed by a process that stopped before its sweep ended are deleted now, and said: only a
  // process that did not stop cleanly leaves them.
  const leftover = engine.sweepUnreferenced();
  if (leftover > 0)
    app.log.warn(
      { contents: leftover },
      `store: finishing the deletion of ${leftover} unreferenced content${leftover === 1 ? '' : 's'} an interrupted gc or branch deletion left`,
    );
  // An endpoint that takes a JSON body refuses every query parameter, as the others refuse unknown
  // ones; set here so that no such route can forget it.
  app.addHook('onRoute', (route) => {
    if (route.schema?.body && !route.schema.querystring)
      route.schema = { ...route.schema, querystring: bodyOnlyQuerySchema };
  });
  const deps: StoreRouteDeps = { engine, metrics: createStoreMetrics(options.registry) };
  await app.register(applyRoutes, deps);
  await app.register(stateRoutes, deps);
  await app.register(diffRoutes, deps);
  await app.register(logRoutes, deps);
  await app.register(checkpointRoutes, deps);
  await app.register(rollbackRoutes, deps);
  await app.register(branchRoutes, deps);
  await app.register(restoreRoutes, deps);
  await app.register(replayRoutes, deps);
  await app.register(mergeRoutes, deps);
  await app.register(gcRoutes, deps);
  await app.register(namespaceRoutes, deps);
  await app.register(tokenRoutes);
};
