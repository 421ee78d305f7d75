import { useIsMutating, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  apiKeyCreatedSchema,
  apiKeyListSchema,
  deploymentHealthListSchema,
  deploymentListSchema,
  modelSettingsOf,
  modelSettingsViewSchema,
  usageResponseSchema,
  apiKeyRecordSchema,
  type ApiKeyCreate,
  type ApiKeyCreated,
  type ApiKeyList,
  type ApiKeyRecord,
  type UsageResponse,
  type ApiKeyUpdate,
  type DeploymentList,
  type DeploymentsUpdate,
  type ModelSettingsUpdate,
  type PricedModelSettingsView,
  type UsageQuery,
} from '../../../shared/gateway-api.js';
import { useApi } from './api-context.js';
import { nameDeploymentInMessage } from './deployment-errors.js';
import { ApiError, type ApiClient } from './http.js';
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
 * What each key spent today (UTC), by key id, from the usage figures; read only while `enabled` (the Keys
 * table sorted by spend), so the screen costs nothing more otherwise.
 */
export function useKeySpendToday(enabled: boolean) {
  const api = useApi();
  const since = `${new Date().toISOString().slice(0, 10)}T00:00:00.000Z`;
  return useQuery({
    enabled,
    queryKey: [...queryKeys.gateway.allKeys, 'spend-today', since] as const,
    refetchInterval: 15_000,
    queryFn: async ({ signal }) => {
      const usage = await api.request('gateway', '/internal/usage', {
        query: { group_by: 'key', bucket: 'day', since },
        schema: usageResponseSchema,
        signal,
      });
      const spent = new Map<string, number>();
      for (const point of usage.data)
        if (point.group !== null) spent.set(point.group, (spent.get(point.group) ?? 0) + point.cost_usd);
      return spent;
    },
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

/** Settings as read, with the ETag they came with: a save sends it back as If-Match. */
export type Tagged<T> = T & { readonly etag?: string };

/** Which of the two whole-set settings a save replaces: their words in the conflict message. */
type SettingsName = 'models' | 'deployments';

/** The message of a save refused because someone changed the settings since they were read. */
export function conflictMessage(what: SettingsName): string {
  return `Someone changed the ${what} since you opened this: reload to see their change; your draft is kept`;
}

/** A save refused (412) because the settings changed since the draft was taken from them. */
export function isConflict(error: unknown): boolean {
  return error instanceof ApiError && error.status === 412;
}

/** Reads settings with their ETag. */
async function readTagged<T>(api: ApiClient, path: string, schema: z.ZodType<T>, signal: AbortSignal) {
  const { data, etag } = await api.tagged('gateway', path, { schema, signal });
  return { ...data, etag } as Tagged<T>;
}

/**
 * Replaces settings only if they are still those the draft was taken from (`If-Match` with their ETag):
 * never a silent overwrite of another admin's change. The answer comes with its new ETag.
 */
async function putIfMatch<T>(
  api: ApiClient,
  path: string,
  body: unknown,
  etag: string | undefined,
  schema: z.ZodType<T>,
): Promise<Tagged<T>> {
  const headers = etag ? { 'if-match': etag } : undefined;
  const answer = await api.tagged('gateway', path, { method: 'PUT', body, schema, headers });
  return { ...answer.data, etag: answer.etag } as Tagged<T>;
}

/**
 * A PUT with If-Match on `base`'s ETag. The ETag covers the whole view, which also moves with what no
 * one edits (the model limits' counters, the provider a deployment gives a model): on a 412 the current
 * settings are read again, and when what `same` compares is still `base`'s, the PUT is sent once more
 * with their ETag. Any other change is a conflict, refused with words for the screen.
 */
async function putUnlessChanged<T>(
  api: ApiClient,
  what: SettingsName,
  schema: z.ZodType<T>,
  body: unknown,
  base: Tagged<T> | undefined,
  same: (a: T, b: T) => boolean,
): Promise<Tagged<T>> {
  const path = `/internal/${what}`;
  try {
    return await putIfMatch(api, path, body, base?.etag, schema);
  } catch (error) {
    if (!isConflict(error) || base === undefined) throw error;
    const current = await readTagged(api, path, schema, new AbortController().signal);
    if (same(current, base)) {
      try {
        return await putIfMatch(api, path, body, current.etag, schema);
      } catch (again) {
        if (!isConflict(again)) throw again;
      }
    }
    throw new ApiError(412, 'precondition_failed', conflictMessage(what), (error as ApiError).requestId);
  }
}

/** Allowed models, aliases, per-model caps, with the ETag they came with. */
export function useModelSettings() {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.gateway.models,
    queryFn: ({ signal }) => readTagged(api, '/internal/models', modelSettingsViewSchema, signal),
  });
}

/** What a save of the model settings sends, and the settings its draft was taken from. */
export interface ModelSettingsSave {
  readonly body: ModelSettingsUpdate;
  /** Their ETag goes as If-Match; without it the save replaces whatever is there (a reset). */
  readonly base?: Tagged<PricedModelSettingsView>;
  /** False keeps the cached settings as they were, for a save that may still be taken back. */
  readonly show?: boolean;
}

/** Whether two reads hold the same model settings (what the screen edits, not counters or providers). */
const sameModelSettings = (a: PricedModelSettingsView, b: PricedModelSettingsView): boolean =>
  JSON.stringify(modelSettingsOf(a)) === JSON.stringify(modelSettingsOf(b));

/** Changes model settings (omitted fields keep their value), refused if they changed since `base`. */
export function useUpdateModelSettings() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ body, base }: ModelSettingsSave) =>
      putUnlessChanged(api, 'models', modelSettingsViewSchema, body, base, sameModelSettings),
    onSuccess: (data, { show = true }) => {
      if (show) client.setQueryData(queryKeys.gateway.models, data);
    },
  });
}

/** The deployments in force, with the ETag they came with. */
export function useDeployments() {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.gateway.deployments,
    queryFn: ({ signal }) => readTagged(api, '/internal/deployments', deploymentListSchema, signal),
  });
}

/** What a save of the deployments sends, and the list its draft was taken from. */
export interface DeploymentsSave {
  readonly body: DeploymentsUpdate;
  /** Its ETag goes as If-Match; without it the save replaces whatever is there (a reset). */
  readonly base?: Tagged<DeploymentList>;
}

/** Replaces the whole deployment list (or returns to the configuration file's with `reset`), refused if it changed since `base`. */
export function useUpdateDeployments() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ body, base }: DeploymentsSave) => {
      try {
        return await putUnlessChanged(
          api,
          'deployments',
          deploymentListSchema,
          body,
          base,
          (a, b) => JSON.stringify(a.data) === JSON.stringify(b.data),
        );
      } catch (error) {
        if (!(error instanceof ApiError) || isConflict(error)) throw error;
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
