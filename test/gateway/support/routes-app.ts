import type { FastifyInstance } from 'fastify';
import type { Config } from '../../../src/server/config/schema.js';
import type { DatabaseHandle } from '../../../src/server/db/connection.js';
import {
  gatewayServicesPlugin,
  type GatewayServicesOptions,
} from '../../../src/server/gateway/pipeline/gateway-services.js';
import { gatewayRoutes } from '../../../src/server/gateway/routes/index.js';
import { createBaseApp } from '../../../src/server/http/base-app.js';
import { createMetricsRegistry, registerMetricsRoute } from '../../../src/server/http/metrics.js';

/** The gateway routes on a bare base app, with extension points filled (what buildGatewayApp does, plus options). */
export async function routesTestApp(
  options: { config: Config; database: DatabaseHandle; masterKey: string } & Pick<
    GatewayServicesOptions,
    'policy' | 'output'
  >,
): Promise<FastifyInstance> {
  const app = createBaseApp({
    name: 'gateway-test',
    logLevel: 'silent',
    bodyLimit: options.config.gateway.body_limit_bytes,
  });
  const plain = app as unknown as FastifyInstance;
  const registry = createMetricsRegistry();
  registerMetricsRoute(plain, registry);
  await app.register(gatewayServicesPlugin, { ...options, registry });
  await app.register(gatewayRoutes);
  return plain;
}
