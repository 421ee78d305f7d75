import { useMutation } from '@tanstack/react-query';
import {
  deploymentTestResultSchema,
  type DeploymentTest,
  type DeploymentTestResult,
} from '../../../shared/gateway-api.js';
import { useApi } from './api-context.js';

/**
 * Tests one deployment with a real call to its provider (`POST /internal/deployments/test`): a draft
 * as it would be saved, or a saved one by id. Nothing is cached: each press asks the provider again.
 */
export function useDeploymentTest() {
  const api = useApi();
  return useMutation<DeploymentTestResult, Error, DeploymentTest>({
    mutationFn: (body) =>
      api.request('gateway', '/internal/deployments/test', {
        method: 'POST',
        body,
        schema: deploymentTestResultSchema,
      }),
  });
}
