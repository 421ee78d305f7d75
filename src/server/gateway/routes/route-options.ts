import type { GatewayServices } from '../pipeline/gateway-services.js';

/** Options every gateway route plugin receives. */
export interface GatewayRouteOptions {
  readonly services: GatewayServices;
}
