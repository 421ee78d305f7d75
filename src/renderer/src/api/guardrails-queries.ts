import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  contentPolicySettingsViewSchema,
  piiSettingsViewSchema,
  type ContentPolicySettingsUpdate,
  type PiiSettingsUpdate,
} from '../../../shared/guardrails-api.js';
import { useApi } from './api-context.js';
import { queryKeys } from './query-keys.js';

const piiKey = [...queryKeys.gateway.guardrails, 'pii'] as const;
const policyKey = [...queryKeys.gateway.guardrails, 'content-policy'] as const;

/** The PII settings in force. */
export function usePiiSettings() {
  const api = useApi();
  return useQuery({
    queryKey: piiKey,
    queryFn: ({ signal }) => api.request('gateway', '/internal/pii', { schema: piiSettingsViewSchema, signal }),
  });
}

/** Changes the PII settings (omitted fields keep their value; `reset` returns to the configuration file). */
export function useUpdatePiiSettings() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: PiiSettingsUpdate) =>
      api.request('gateway', '/internal/pii', { method: 'PUT', body, schema: piiSettingsViewSchema }),
    onSuccess: (data) => client.setQueryData(piiKey, data),
  });
}

/** The content-policy settings in force. */
export function useContentPolicySettings() {
  const api = useApi();
  return useQuery({
    queryKey: policyKey,
    queryFn: ({ signal }) =>
      api.request('gateway', '/internal/content-policy', { schema: contentPolicySettingsViewSchema, signal }),
  });
}

/** Changes the content-policy settings, as {@link useUpdatePiiSettings}. */
export function useUpdateContentPolicySettings() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ContentPolicySettingsUpdate) =>
      api.request('gateway', '/internal/content-policy', {
        method: 'PUT',
        body,
        schema: contentPolicySettingsViewSchema,
      }),
    onSuccess: (data) => client.setQueryData(policyKey, data),
  });
}
