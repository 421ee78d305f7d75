import { useIsMutating, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  apiKeyCreatedSchema,
  apiKeyListSchema,
  deploymentHealthListSchema,
  deploymentListSchema,
  modelSettingsViewSchema,
  usageResponseSchema,
  apiKeyRecordSchema,
  type ApiKeyCreate,
  type ApiKeyCreated,
  type ApiKeyList,
  type ApiKeyRecord,
  type UsageResponse,
  type ApiKeyUpdate,
  type DeploymentsUpdate,
  type ModelSettingsUpdate,
  type UsageQuery,
} from '../../../shared/gateway-api.js';
import { useApi } from './api-context.js';
import { nameDeploymentInMessage } from './deployment-errors.js';
import { ApiError } from './http.js';
import { queryKeys } from './query-keys.js';

/** Issued keys (never their secrets). */
export function useApiKeys(includeRevoked: boolean, enabled = true) {
  const api = useApi();
  return useQuery({
    enabled,
    queryKey: queryKeys.gateway.keys(includeRevoked),
    queryFn: ({ signal }) =>
      api.request('gateway', '/internal/api-keys', {
        query: { include_revoked: includeRevoked ? 'true' : undefined },
        schema: apiKeyListSchema,
        signal,
      }),
  });
}

/**
 * Shows a key as the gateway answered a write in the cached lists at once, then reads them again
 * without waiting: a slow read must not hold the dialog that sent the write, nor the secret it got.
 */
function showKeyAnswered(client: QueryClient, answered: ApiKeyRecord): void {
  // The lists are never to hold a secret.
  const record = apiKeyRecordSchema.parse(answered);
  for (const includeRevoked of [false, true]) {
    client.setQueryData<ApiKeyList>(queryKeys.gateway.keys(includeRevoked), (list) => {
      if (!list) return list;
      const listed = includeRevoked || record.status !== 'revoked';
      const known = list.data.some((key) => key.id === record.id);
      const data = known
        ? list.data.flatMap((key) => (key.id !== record.id ? [key] : listed ? [record] : []))
        : listed
          ? [record, ...list.data] // newest first, as the gateway lists them
          : list.data;
      return { ...list, data };
    });
  }
  void client.invalidateQueries({ queryKey: queryKeys.gateway.allKeys });
}

/** Marks the writes whose answer carries a secret shown only once. */
const keySecretMutation = ['gateway', 'api-keys', 'secret'] as const;

/** Whether a key is being issued or rotated: its secret is on its way and exists nowhere else. */
export function useKeySecretOnItsWay(): boolean {
  return useIsMutating({ mutationKey: keySecretMutation }) > 0;
}

/**
 * Issues a key; the answer carries the secret, shown once. `onIssued` gets it as soon as the gateway
 * answers, also when the form that sent it was closed meanwhile.
 */
export function useIssueKey(onIssued: (key: ApiKeyCreated) => void) {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationKey: keySecretMutation,
    mutationFn: (body: ApiKeyCreate) =>
      api.request('gateway', '/internal/api-keys', { method: 'POST', body, schema: apiKeyCreatedSchema }),
    onSuccess: (created) => {
      onIssued(created);
      showKeyAnswered(client, created);
    },
  });
}

/** Changes a key (limits, budgets, owner); the gateway applies it to the next request. */
export function useUpdateKey() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { readonly id: string; readonly body: ApiKeyUpdate }) =>
      api.request('gateway', `/internal/api-keys/${encodeURIComponent(id)}`, {
        method: 'PATCH',
        body,
        schema: apiKeyRecordSchema,
      }),
    onSuccess: (saved) => showKeyAnswered(client, saved),
  });
}

/** Revokes a key: it stops working at once. */
export function useRevokeKey() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api.request('gateway', `/internal/api-keys/${encodeURIComponent(id)}`, {
        method: 'DELETE',
        schema: apiKeyRecordSchema,
      }),
    onSuccess: (revoked) => showKeyAnswered(client, revoked),
  });
}

/**
 * Gives a key a new secret (in the answer only); the old one works for `grace_seconds` more.
 * `onRotated` gets it as soon as the gateway answers, also when the form that asked was closed meanwhile.
 */
export function useRotateKey(onRotated: (rotated: ApiKeyCreated) => void) {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationKey: keySecretMutation,
    mutationFn: ({ id, graceSeconds }: { id: string; graceSeconds: number }) =>
      api.request('gateway', `/internal/api-keys/${encodeURIComponent(id)}/rotate`, {
        method: 'POST',
        body: { grace_seconds: graceSeconds },
        schema: apiKeyCreatedSchema,
      }),
    onSuccess: (rotated) => {
      onRotated(rotated);
      showKeyAnswered(client, rotated);
    },
  });
}

/** Allowed models, aliases, per-model caps. */
export function useModelSettings() {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.gateway.models,
    queryFn: ({ signal }) => api.request('gateway', '/internal/models', { schema: modelSettingsViewSchema, signal }),
  });
}

/** Changes model settings (omitted fields keep their value). */
export function useUpdateModelSettings() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ModelSettingsUpdate) =>
      api.request('gateway', '/internal/models', { method: 'PUT', body, schema: modelSettingsViewSchema }),
    onSuccess: (data) => client.setQueryData(queryKeys.gateway.models, data),
  });
}

/** The deployments in force. */
export function useDeployments() {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.gateway.deployments,
    queryFn: ({ signal }) => api.request('gateway', '/internal/deployments', { schema: deploymentListSchema, signal }),
  });
}

/** Replaces the whole deployment list (or returns to the configuration file's with `reset`). */
export function useUpdateDeployments() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: DeploymentsUpdate) => {
      try {
        return await api.request('gateway', '/internal/deployments', {
          method: 'PUT',
          body,
          schema: deploymentListSchema,
        });
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        const message = nameDeploymentInMessage(error.message, body.deployments ?? []);
        throw new ApiError(error.status, error.type, message, error.requestId);
      }
    },
    onSuccess: (data) => {
      client.setQueryData(queryKeys.gateway.deployments, data);
      // The provider shown per allowed model and the health rows follow the deployments.
      void client.invalidateQueries({ queryKey: queryKeys.gateway.models });
      void client.invalidateQueries({ queryKey: queryKeys.gateway.deploymentHealth });
    },
  });
}

/** Per-deployment health from recent routing. */
export function useDeploymentHealth() {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.gateway.deploymentHealth,
    refetchInterval: 10_000,
    queryFn: ({ signal }) =>
      api.request('gateway', '/internal/deployments/health', { schema: deploymentHealthListSchema, signal }),
  });
}

/** Usage aggregated per time bucket and group, over a window of `windowMs` from `since`. */
export function useUsage(
  query: Pick<UsageQuery, 'group_by' | 'bucket'> & { readonly since: string },
  windowMs: number,
) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.gateway.usage(query.group_by, query.bucket, windowMs, query.since),
    refetchInterval: 15_000,
    // The window moves each minute: the charts stay on screen while the moved one loads, rather than
    // flashing to a spinner. Another grouping, bucket or window length (24 hours and 7 days share
    // hourly buckets) is other data, and waits for its own rather than show the old under the new name.
    placeholderData: (previous: UsageResponse | undefined, previousQuery) =>
      previousQuery?.queryKey[2] === query.group_by &&
      previousQuery.queryKey[3] === query.bucket &&
      previousQuery.queryKey[4] === windowMs
        ? previous
        : undefined,
    queryFn: ({ signal }) => api.request('gateway', '/internal/usage', { query, schema: usageResponseSchema, signal }),
  });
}
