import type { GatewayServices } from '../pipeline/gateway-services.js';
import type { Endpoint } from '../pipeline/request-context.js';

/** Options every gateway route plugin receives. */
export interface GatewayRouteOptions {
  readonly services: GatewayServices;
}

/** Route config of /v1 routes: which endpoint (scope, accounting) the route is. */
export interface V1RouteConfig {
  readonly endpoint: Endpoint;
}
