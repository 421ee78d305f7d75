import { badRequest, httpErrorFor } from '../../http/errors.js';
import { GatewayError } from '../gateway-error.js';

/**
 * Runs a service call, turning its domain errors (GatewayError) into the HTTP errors /v1 answers;
 * `field` names the request field the call was given, as the one at fault when the service refuses it.
 */
export function atEdge<T>(call: () => T, field?: string): T {
  try {
    return call();
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    throw error.kind === 'invalid' ? badRequest(error.message, field) : httpErrorFor(error.kind, error.message);
  }
}
