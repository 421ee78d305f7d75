import type { FastifyPluginAsync } from 'fastify';
import type { Registry } from 'prom-client';
import type { DatabaseHandle } from '../../db/connection.js';
import type { Config } from '../../config/schema.js';

/** Options the store app passes to the store routes. */
export interface StoreRoutesOptions {
  readonly database: DatabaseHandle;
  readonly registry: Registry;
  readonly limits: Config['store']['limits'];
}

/** Registers every store resource's routes (filled in by the store engine work). */
export const storeRoutes: FastifyPluginAsync<StoreRoutesOptions> = async () => {};
