import type { FastifyPluginAsync } from 'fastify';
import type { GatewayContext } from '../gateway-context.js';

/** Registers the gateway's public (/v1/*) and admin (/internal/*) routes (filled in by the gateway work). */
export const gatewayRoutes: FastifyPluginAsync<GatewayContext> = async () => {};
