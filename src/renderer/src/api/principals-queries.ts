import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
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
import type { z } from 'zod';
import { useApi } from './api-context.js';
import { queryKeys } from './query-keys.js';

/** Where a limit stands moves with traffic; the live stream refreshes sooner, this is the fallback. */
const REFRESH_MS = 15_000;

/**
 * Which lists a change to a user or team can move: counts, owners and limit statuses show across them.
 * Resolves once they are read again: a delete waits for that, so its dialog closes with the row gone and
 * focus goes back to the table (else to the row's Delete button, falling to the page's body when it went).
 */
function refreshPrincipals(client: QueryClient): Promise<unknown> {
  return Promise.all([
    client.invalidateQueries({ queryKey: queryKeys.gateway.teams }),
    client.invalidateQueries({ queryKey: queryKeys.gateway.users }),
    client.invalidateQueries({ queryKey: queryKeys.gateway.allKeys }),
  ]);
}

/** Records the Users & teams screen reads at a time; Show more reads the next page. */
export const PRINCIPALS_PAGE_SIZE = 100;

/** Teams with their limits, counts and today's spend (all of them: for pickers and checks; read while `enabled`). */
export function useTeams(enabled = true) {
  const api = useApi();
  return useQuery({
    enabled,
    queryKey: queryKeys.gateway.teams,
    refetchInterval: REFRESH_MS,
    queryFn: ({ signal }) => api.request('gateway', '/internal/teams', { schema: teamListSchema, signal }),
  });
}

/** Users with their limits, key counts and today's spend (all of them: for pickers and checks; read while `enabled`). */
export function useUsers(enabled = true) {
  const api = useApi();
  return useQuery({
    enabled,
    queryKey: queryKeys.gateway.users,
    refetchInterval: REFRESH_MS,
    queryFn: ({ signal }) => api.request('gateway', '/internal/users', { schema: userListSchema, signal }),
  });
}

/** A page of users or teams: `next_cursor` is the `after` of the next page (null on the last). */
interface PrincipalPage {
  readonly next_cursor: string | null;
}

/**
 * A list of users or teams a page at a time, by id: with thousands, the screen reads and draws the first
 * pages only. Under the list's own key, so that every change that refreshes the list refreshes these too.
 */
function usePrincipalPages<P extends PrincipalPage>(listKey: readonly string[], path: string, schema: z.ZodType<P>) {
  const api = useApi();
  return useInfiniteQuery({
    queryKey: [...listKey, 'pages'] as const,
    refetchInterval: REFRESH_MS,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api.request('gateway', path, { query: { limit: PRINCIPALS_PAGE_SIZE, after: pageParam }, schema, signal }),
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  });
}

/** Teams a page at a time (see {@link usePrincipalPages}). */
export function useTeamPages() {
  return usePrincipalPages(queryKeys.gateway.teams, '/internal/teams', teamListSchema);
}

/** Users a page at a time (see {@link usePrincipalPages}). */
export function useUserPages() {
  return usePrincipalPages(queryKeys.gateway.users, '/internal/users', userListSchema);
}

/** Creates a team. */
export function useCreateTeam() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TeamCreate) =>
      api.request('gateway', '/internal/teams', { method: 'POST', body, schema: teamRecordSchema }),
    onSuccess: () => void refreshPrincipals(client),
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
    onSuccess: () => void refreshPrincipals(client),
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
    onSuccess: () => void refreshPrincipals(client),
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
    onSuccess: () => void refreshPrincipals(client),
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
