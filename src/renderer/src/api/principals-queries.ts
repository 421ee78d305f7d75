import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  teamListSchema,
  teamRecordSchema,
  userListSchema,
  userRecordSchema,
  type TeamCreate,
  type TeamUpdate,
  type UserCreate,
  type UserUpdate,
} from '../../../shared/principals-api.js';
import { useApi } from './api-context.js';
import { queryKeys } from './query-keys.js';

/** Where a limit stands moves with traffic; the live stream refreshes sooner, this is the fallback. */
const REFRESH_MS = 15_000;

/** Which lists a change to a user or team can move: counts, owners and limit statuses show across them. */
function refreshPrincipals(client: QueryClient): void {
  void client.invalidateQueries({ queryKey: queryKeys.gateway.teams });
  void client.invalidateQueries({ queryKey: queryKeys.gateway.users });
  void client.invalidateQueries({ queryKey: queryKeys.gateway.allKeys });
}

/** Teams with their limits, counts and today's spend. */
export function useTeams() {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.gateway.teams,
    refetchInterval: REFRESH_MS,
    queryFn: ({ signal }) => api.request('gateway', '/internal/teams', { schema: teamListSchema, signal }),
  });
}

/** Users with their limits, key counts and today's spend. */
export function useUsers() {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.gateway.users,
    refetchInterval: REFRESH_MS,
    queryFn: ({ signal }) => api.request('gateway', '/internal/users', { schema: userListSchema, signal }),
  });
}

/** Creates a team. */
export function useCreateTeam() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TeamCreate) =>
      api.request('gateway', '/internal/teams', { method: 'POST', body, schema: teamRecordSchema }),
    onSuccess: () => refreshPrincipals(client),
  });
}

/** Changes a team's name or limits (null clears); applies to the next request. */
export function useUpdateTeam() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { readonly id: string; readonly body: TeamUpdate }) =>
      api.request('gateway', `/internal/teams/${encodeURIComponent(id)}`, {
        method: 'PATCH',
        body,
        schema: teamRecordSchema,
      }),
    onSuccess: () => refreshPrincipals(client),
  });
}

/** Deletes a team; the gateway refuses (409) while users or keys belong to it. */
export function useDeleteTeam() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api.request('gateway', `/internal/teams/${encodeURIComponent(id)}`, {
        method: 'DELETE',
        schema: teamRecordSchema,
      }),
    onSuccess: () => refreshPrincipals(client),
  });
}

/** Creates a user. */
export function useCreateUser() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UserCreate) =>
      api.request('gateway', '/internal/users', { method: 'POST', body, schema: userRecordSchema }),
    onSuccess: () => refreshPrincipals(client),
  });
}

/** Changes a user's details, team or limits (null clears); applies to the next request. */
export function useUpdateUser() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { readonly id: string; readonly body: UserUpdate }) =>
      api.request('gateway', `/internal/users/${encodeURIComponent(id)}`, {
        method: 'PATCH',
        body,
        schema: userRecordSchema,
      }),
    onSuccess: () => refreshPrincipals(client),
  });
}

/** Deletes a user; the gateway refuses (409) while keys belong to them. */
export function useDeleteUser() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api.request('gateway', `/internal/users/${encodeURIComponent(id)}`, {
        method: 'DELETE',
        schema: userRecordSchema,
      }),
    onSuccess: () => refreshPrincipals(client),
  });
}
