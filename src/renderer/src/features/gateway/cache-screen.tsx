import { useState } from 'react';
import type { CachePurge } from '../../../../shared/cache-api.js';
import { useCache, usePurgeCache, useUpdateCache } from '../../api/cache-queries.js';
import { Button } from '../../components/button.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { ErrorMessage, Loading } from '../../components/feedback.js';
import { Field, TextArea, TextInput } from '../../components/field.js';
import { PageBody, PageHeader } from '../../components/page.js';
import { blockerOf, SaveBar } from '../../components/save-bar.js';
import { showToast } from '../../components/toast.js';
import { formatBytes, formatInt, plural, timeAgo } from '../../lib/format.js';
import { useServerDraft } from '../../lib/use-server-draft.js';
import { CacheNotKeptCount, CacheRequestCounts } from './cache-counts.js';
import { CacheSavingsPanel } from './cache-savings.js';
import { useApiKeys } from '../../api/gateway-queries.js';
import {
  CACHE_FIELDS,
  cacheDraftOf,
  cacheProblems,
  cacheUpdateOf,
  keyRulesOf,
  withKeyRule,
  type CacheDraft,
} from './cache-form.js';
import { KeyPicker, keyLabel } from './key-picker.js';

/** Purge: everything, or only what matches the fields filled in. */
function PurgePanel() {
  const purge = usePurgeCache();
  const [filter, setFilter] = useState({ team: '', key_id: '', model: '' });
  const [confirming, setConfirming] = useState(false);
  const run = async (): Promise<void> => {
    const body: CachePurge = {
      ...(filter.team.trim() ? { team: filter.team.trim() } : {}),
      ...(filter.key_id.trim() ? { key_id: filter.key_id.trim() } : {}),
      ...(filter.model.trim() ? { model: filter.model.trim() } : {}),
    };
    try {
      const result = await purge.mutateAsync(body);
      showToast(`Purged ${plural(result.purged, 'answer')}`);
    } catch {
      // shown below
    }
  };
  const narrowed = Boolean(filter.team.trim() || filter.key_id.trim() || filter.model.trim());
  return (
    <section className="panel">
      <h2 className="panel-title">Purge</h2>
      <p className="panel-text">
        Forgets kept answers now. Leave the fields empty to purge everything; filled fields must all match.
      </p>
      <div className="form-grid">
        {(['team', 'key_id', 'model'] as const).map((name) => (
          <Field
            key={name}
            label={name === 'key_id' ? 'Key' : name === 'team' ? 'Team' : 'Model'}
            htmlFor={`purge-${name}`}
          >
            {name === 'key_id' ? (
              <KeyPicker
                id="purge-key_id"
                value={filter.key_id}
                emptyLabel="Any key"
                onPick={(id) => setFilter({ ...filter, key_id: id })}
              />
            ) : (
              <TextInput
                id={`purge-${name}`}
                value={filter[name]}
                onChange={(event) => setFilter({ ...filter, [name]: event.target.value })}
              />
            )}
          </Field>
        ))}
      </div>
      <Button variant="danger" busy={purge.isPending} onClick={() => setConfirming(true)} data-testid="purge-cache">
        {narrowed ? 'Purge matching answers' : 'Purge everything'}
      </Button>
      {confirming && (
        <ConfirmDialog
          testId="purge-cache-dialog"
          title={narrowed ? 'Purge the matching answers?' : 'Purge every kept answer?'}
          description="Their requests go to the providers again (and are charged) until the cache holds them anew."
          confirmLabel={narrowed ? 'Purge matching answers' : 'Purge everything'}
          onConfirm={() => void run()}
          onClose={() => setConfirming(false)}
        />
      )}
      {purge.error && <ErrorMessage error={purge.error} title="Could not purge the cache" />}
    </section>
  );
}

/** Which key each id of the per-key rules is, since the rules can only name keys by id. */
function KeyRulesNames({ rules }: { readonly rules: string }) {
  const keys = useApiKeys(false).data?.data ?? [];
  const ids = Object.keys(keyRulesOf(rules) ?? {});
  if (ids.length === 0) return <>{'{"key_…": {"enabled": false}}: add one with the key picker below.'}</>;
  return (
    <>{ids.map((id) => `${id} is ${keyLabel(keys, id) === id ? 'no active key' : keyLabel(keys, id)}`).join('; ')}</>
  );
}

/** The response cache: what it holds, its settings (live, without a restart) and a purge. */
export function CacheScreen() {
  const cache = useCache();
  const update = useUpdateCache();
  // The counters refetch as requests are answered: only a change of the settings may touch the draft.
  const serverDraft = useServerDraft(cache.data, (data) => cacheDraftOf(data.settings));
  const { draft, setDraft } = serverDraft;
  const view = cache.data;
  const dirty = Boolean(view && draft && JSON.stringify(cacheDraftOf(view.settings)) !== JSON.stringify(draft));
  const checked = draft ? cacheUpdateOf(draft) : undefined;
  const errors = checked?.errors ?? {};
  const problems = cacheProblems(errors);

  const save = async (): Promise<void> => {
    const body = checked?.update;
    if (!body) return;
    try {
      serverDraft.saved(await update.mutateAsync(body));
      showToast('Cache settings saved');
    } catch {
      // shown in the save bar
    }
  };
  const [confirmingReset, setConfirmingReset] = useState(false);
  const reset = async (): Promise<void> => {
    try {
      await update.mutateAsync({ reset: true });
      showToast('Cache settings reset to the startup configuration');
    } catch {
      // shown below
    }
  };
  const set = (patch: Partial<CacheDraft>): void => {
    if (draft) setDraft({ ...draft, ...patch });
  };
  const discard = (): void => {
    serverDraft.discard();
    update.reset();
  };

  return (
    <>
      <PageHeader
        title="Response cache"
        subtitle={
          view
            ? `Exact-match answers, per team (or per key without a team). Changes apply at once. Source: ${view.source === 'database' ? `changed at run time (this screen or the admin API)${view.updated_at ? ` ${timeAgo(view.updated_at)}` : ''}` : 'startup configuration'}.`
            : undefined
        }
        actions={
          view?.source === 'database' && (
            <Button variant="ghost" busy={update.isPending && !dirty} onClick={() => setConfirmingReset(true)}>
              Reset to startup configuration
            </Button>
          )
        }
      />
      <PageBody>
        {!view || !draft ? (
          cache.isError ? (
            <ErrorMessage
              error={cache.error}
              title="Could not load the cache settings"
              onRetry={() => void cache.refetch()}
              retrying={cache.isFetching}
            />
          ) : (
            <Loading />
          )
        ) : (
          <>
            <section className="panel" data-testid="cache-stats">
              <h2 className="panel-title">Now (since the gateway started)</h2>
              <dl className="detail-grid">
                <div className="detail-item">
                  <dt>Answers kept</dt>
                  <dd>{formatInt(view.stats.entries)}</dd>
                </div>
                <div className="detail-item">
                  <dt>Size</dt>
                  <dd>
                    {formatBytes(view.stats.bytes)} of {formatBytes(view.settings.max_bytes)}
                  </dd>
                </div>
                <div className="detail-item">
                  <dt>Hits / misses</dt>
                  <dd>
                    {formatInt(view.stats.hits)} / {formatInt(view.stats.misses)}
                  </dd>
                </div>
                <div className="detail-item">
                  <dt>Answers stored</dt>
                  <dd>{formatInt(view.stats.stores)}</dd>
                </div>
                <CacheRequestCounts stats={view.stats} />
                <CacheNotKeptCount stats={view.stats} />
              </dl>
            </section>
            <CacheSavingsPanel />
            <section className="panel">
              <h2 className="panel-title">Settings</h2>
              <label className="checkbox">
                <input
                  type="checkbox"
                  data-testid="cache-enabled"
                  checked={draft.enabled}
                  onChange={(event) => set({ enabled: event.target.checked })}
                />
                Cache answers (a model or key rule below may override this)
              </label>
              <label className="checkbox">
                <input
                  type="checkbox"
                  checked={draft.sampled}
                  onChange={(event) => set({ sampled: event.target.checked })}
                />
                Also cache sampled requests (without temperature 0); embeddings are always cached
              </label>
              <div className="form-grid">
                <Field label="Time to live (seconds)" htmlFor={CACHE_FIELDS.ttl_seconds.id} error={errors.ttl_seconds}>
                  <TextInput
                    id={CACHE_FIELDS.ttl_seconds.id}
                    inputMode="numeric"
                    value={draft.ttl_seconds}
                    onChange={(e) => set({ ttl_seconds: e.target.value })}
                  />
                </Field>
                <Field label="Most answers kept" htmlFor={CACHE_FIELDS.max_entries.id} error={errors.max_entries}>
                  <TextInput
                    id={CACHE_FIELDS.max_entries.id}
                    inputMode="numeric"
                    value={draft.max_entries}
                    onChange={(e) => set({ max_entries: e.target.value })}
                  />
                </Field>
                <Field
                  label="Memory bound (bytes)"
                  htmlFor={CACHE_FIELDS.max_bytes.id}
                  error={errors.max_bytes}
                  hint={formatBytes(Number(draft.max_bytes) || 0)}
                >
                  <TextInput
                    id={CACHE_FIELDS.max_bytes.id}
                    inputMode="numeric"
                    value={draft.max_bytes}
                    onChange={(e) => set({ max_bytes: e.target.value })}
                  />
                </Field>
                <Field
                  label="Largest answer kept (bytes)"
                  htmlFor={CACHE_FIELDS.max_entry_bytes.id}
                  error={errors.max_entry_bytes}
                  hint={formatBytes(Number(draft.max_entry_bytes) || 0)}
                >
                  <TextInput
                    id={CACHE_FIELDS.max_entry_bytes.id}
                    inputMode="numeric"
                    value={draft.max_entry_bytes}
                    onChange={(e) => set({ max_entry_bytes: e.target.value })}
                  />
                </Field>
              </div>
              <Field
                label="Per-model rules"
                htmlFor={CACHE_FIELDS.models.id}
                error={errors.models}
                hint='{"gpt-4o": {"enabled": false}, "text-embedding-3-small": {"ttl_seconds": 86400}}'
              >
                <TextArea
                  id={CACHE_FIELDS.models.id}
                  rows={4}
                  className="mono"
                  value={draft.models}
                  onChange={(e) => set({ models: e.target.value })}
                />
              </Field>
              <Field
                label="Per-key rules (by key id; they win over the model's)"
                htmlFor={CACHE_FIELDS.keys.id}
                error={errors.keys}
                hint={<KeyRulesNames rules={draft.keys} />}
              >
                <TextArea
                  id={CACHE_FIELDS.keys.id}
                  rows={4}
                  className="mono"
                  value={draft.keys}
                  onChange={(e) => set({ keys: e.target.value })}
                />
              </Field>
              <KeyPicker
                aria-label="Add a per-key rule"
                value=""
                emptyLabel="Add a rule for a key…"
                exclude={Object.keys(keyRulesOf(draft.keys) ?? {})}
                disabled={keyRulesOf(draft.keys) === undefined}
                title={keyRulesOf(draft.keys) === undefined ? 'Fix the rules above first' : undefined}
                onPick={(id) => id && set({ keys: withKeyRule(draft.keys, id) })}
              />
              {/* A save's failure shows in the save bar; this is a reset's, which has no bar. */}
              {!dirty && update.error && (
                <ErrorMessage error={update.error} title="Could not reset the cache settings" />
              )}
            </section>
            <PurgePanel />
          </>
        )}
      </PageBody>
      {confirmingReset && (
        <ConfirmDialog
          testId="reset-cache-dialog"
          title="Reset the cache settings to the startup configuration?"
          description="The settings changed at run time (on this screen or through the admin API) are replaced by the startup configuration's. Kept answers stay until they expire or are purged."
          confirmLabel="Reset cache settings"
          onConfirm={() => void reset()}
          onClose={() => setConfirmingReset(false)}
        />
      )}
      {dirty && (
        <SaveBar
          screen="Cache"
          onDiscard={discard}
          onSave={() => void save()}
          busy={update.isPending}
          blocker={blockerOf(problems)}
          error={update.error}
          draft={JSON.stringify(draft)}
          saveTestId="save-cache"
        >
          Unsaved changes to the cache settings
        </SaveBar>
      )}
    </>
  );
}
