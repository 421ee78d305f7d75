import { useEffect, useState } from 'react';
import type { ModelSettings, ModelSettingsView } from '../../../../shared/gateway-api.js';
import { useModelSettings, useUpdateModelSettings } from '../../api/gateway-queries.js';
import { Button } from '../../components/button.js';
import { ErrorMessage, Loading } from '../../components/feedback.js';
import { Field, Select } from '../../components/field.js';
import { PageBody, PageHeader } from '../../components/page.js';
import { showToast } from '../../components/toast.js';
import { timeAgo } from '../../lib/format.js';
import { DeploymentsPanel } from './deployments-panel.js';
import { Aliases, AllowedModels } from './model-settings-editor.js';

function settingsOf(view: ModelSettingsView): ModelSettings {
  return { allowed_models: view.allowed_models, model_aliases: view.model_aliases, per_model_max_tokens: view.per_model_max_tokens, default_embedding_model: view.default_embedding_model };
}

/** Allowed models, aliases and caps (edited as a draft, saved together), and the deployments. */
export function ModelsScreen() {
  const settings = useModelSettings();
  const update = useUpdateModelSettings();
  const [draft, setDraft] = useState<ModelSettings>();
  useEffect(() => {
    if (settings.data) setDraft(settingsOf(settings.data));
  }, [settings.data]);
  const dirty = settings.data && draft && JSON.stringify(settingsOf(settings.data)) !== JSON.stringify(draft);

  return (
    <>
      <PageHeader
        title="Models"
        subtitle={settings.data ? `Changes apply at once, without a restart. Source: ${settings.data.source === 'database' ? `edited here${settings.data.updated_at ? ` ${timeAgo(settings.data.updated_at)}` : ''}` : 'configuration file'}.` : undefined}
        actions={
          settings.data?.source === 'database' && (
            <Button variant="ghost" busy={update.isPending && !dirty} onClick={() => update.mutate({ reset: true }, { onSuccess: () => showToast('Model settings reset to the configuration file') })}>
              Reset to configuration file
            </Button>
          )
        }
      />
      <PageBody>
        {settings.isPending || !draft ? (
          settings.isError ? <ErrorMessage error={settings.error} title="Could not load the model settings" /> : <Loading />
        ) : (
          <>
            <section className="panel">
              <h2 className="panel-title">Allowed models</h2>
              <p className="panel-text">Requests for any other model are refused with model_not_allowed. A cap lowers max_tokens for that model.</p>
              <AllowedModels draft={draft} providers={settings.data?.providers ?? {}} onChange={setDraft} />
            </section>
            <section className="panel">
              <h2 className="panel-title">Aliases</h2>
              <p className="panel-text">Names clients may send, rewritten to an allowed model before anything else. Aliases are not listed by /v1/models.</p>
              <Aliases draft={draft} onChange={setDraft} />
            </section>
            <section className="panel">
              <h2 className="panel-title">Embeddings</h2>
              <Field label="Default embedding model" htmlFor="default-embedding" hint="Used when an embeddings request names no model.">
                <Select id="default-embedding" value={draft.default_embedding_model ?? ''} onChange={(event) => setDraft({ ...draft, default_embedding_model: event.target.value || null })}>
                  <option value="">None (requests must name a model)</option>
                  {draft.allowed_models.map((model) => (
                    <option key={model} value={model}>
                      {model}
                    </option>
                  ))}
                </Select>
              </Field>
            </section>
            <section className="panel">
              <h2 className="panel-title">Deployments</h2>
              <DeploymentsPanel />
            </section>
            {update.error && <ErrorMessage error={update.error} title="Could not save the model settings" />}
          </>
        )}
      </PageBody>
      {dirty && (
        <div className="save-bar" role="region" aria-label="Unsaved changes">
          <span>Unsaved changes to the model settings</span>
          <Button variant="ghost" onClick={() => settings.data && setDraft(settingsOf(settings.data))}>
            Discard
          </Button>
          <Button variant="primary" busy={update.isPending} data-testid="save-models" onClick={() => update.mutate(draft!, { onSuccess: () => showToast('Model settings saved') })}>
            Save changes
          </Button>
        </div>
      )}
    </>
  );
}
