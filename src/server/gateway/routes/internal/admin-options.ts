import type { AdminService } from '../../admin/admin.service.js';
import type { GatewayServices } from '../../pipeline/gateway-services.js';

/** Options of the admin route plugins. */
export interface AdminRouteOptions {
  readonly services: GatewayServices;
  readonly admin: AdminService;
}
