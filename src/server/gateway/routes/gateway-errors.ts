import { httpErrorFor } from '../../http/errors.js';
import { GatewayError } from '../gateway-error.js';

/** Runs a service call, turning its domain errors (GatewayError) into the HTTP errors /v1 answers. */
export function atEdge<T>(call: () => T): T {
  try {
    return call();
  } catch (error) {
    throw error instanceof GatewayError ? httpErrorFor(error.kind, error.message) : error;
  }
}
