import { useState } from 'react';
import type { DeploymentInput, PricedModelSettingsView } from '../../../../shared/gateway-api.js';
import { useServerDraft } from '../../lib/use-server-draft.js';
import {
  useApiKeys,
  useDeployments,
  useModelSettings,
  useUpdateDeployments,
  useUpdateModelSettings,
} from '../../api/gateway-queries.js';
import { Button } from '../../components/button.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { ErrorMessage, Loading } from '../../components/feedback.js';
import { Field, Select } from '../../components/field.js';
import { PageBody, PageHeader } from '../../components/page.js';
import { blockerOf, SaveBar } from '../../components/save-bar.js';
import { showToast } from '../../components/toast.js';
import { timeAgo } from '../../lib/format.js';
import { deploymentsChanged, draftOf, toDeploymentInput } from './deployment-form.js';
import { DeploymentsPanel } from './deployments-panel.js';
import { Aliases, AllowedModels } from './model-settings-editor.js';
import {
  aliasProblems,
  priceProblems,
  settingsDraftOf,
  settingsOfDraft,
  typedEntryProblems,
  type NewAlias,
} from './model-settings-form.js';
import { ModelLimitsPanel } from './model-limits-panel.js';
import { draftWithoutModel, modelDependants } from './model-removal-dependants.js';
import { ModelRemovalDialog } from './model-removal-dialog.js';

/** What a reset drops, named: it cannot be undone, and a deployment's stored key cannot be read back. */
function resetDescription(
  settings: PricedModelSettingsView | undefined,
  deployments: { readonly source: string; readonly data: readonly unknown[] } | undefined,
): string {
  const lost: string[] = [];
  if (settings?.source === 'database') {
    const aliases = Object.keys(settings.model_aliases).length;
    lost.push(
      `the allowed models, caps and prices edited here, and ${aliases === 1 ? '1 alias' : `${aliases} aliases`}`,
    );
  }
  const count = deployments?.source === 'database' ? deployments.data.length : 0;
  if (deployments?.source === 'database')
    lost.push(
      count === 0
        ? 'the deployment list edited here (empty)'
        : `${count === 1 ? '1 deployment' : `${count} deployments`} with the API keys stored for them`,
    );
  const undo = count > 0 ? 'It cannot be undone: keys stored here must be entered again.' : 'It cannot be undone.';
  return `This replaces ${lost.join(', and ')} with the startup configuration. ${undo}`;
}

/** Allowed models, aliases, caps and deployments: edited as one draft, saved together. */
export function ModelsScreen() {
  const settings = useModelSettings();
  const deployments = useDeployments();
  const update = useUpdateModelSettings();
  const updateDeployments = useUpdateDeployments();
  const settingsDraft = useServerDraft(settings.data, settingsDraftOf);
  const { draft, setDraft } = settingsDraft;
  const deploymentsDraft = useServerDraft(deployments.data, (list) => list.data.map(draftOf));
  const { draft: deploymentDrafts, setDraft: setDeploymentDrafts } = deploymentsDraft;
  const settingsDirty = Boolean(
    settings.data && draft && JSON.stringify(settingsDraftOf(settings.data)) !== JSON.stringify(draft),
  );
  const deploymentsDirty = Boolean(
    deployments.data && deploymentDrafts && deploymentsChanged(deploymentDrafts, deployments.data.data),
  );
  const dirty = settingsDirty || deploymentsDirty;
  // What is typed in the add rows counts too: saving without it would drop it unseen.
  const [newModel, setNewModel] = useState('');
  const [newAlias, setNewAlias] = useState<NewAlias>({ name: '', target: '' });
  const [confirmingReset, setConfirmingReset] = useState(false);
  // The model whose removal is being confirmed; the keys limited to it are read for that dialog.
  const [removing, setRemoving] = useState<string | null>(null);
  const keys = useApiKeys(false, removing !== null);
  const listedProblems = draft ? aliasProblems(draft) : [];
  const pricesProblems = draft ? priceProblems(draft) : [];
  const problems = draft
    ? [...pricesProblems, ...listedProblems, ...typedEntryProblems(draft, newModel, newAlias)]
    : listedProblems;
  const saving = update.isPending || updateDeployments.isPending;
  const fromDatabase = settings.data?.source === 'database' || deployments.data?.source === 'database';
  // A reset replaces both, and asks first naming what goes: it waits until both are known.
  const resetWaitsFor = !settings.data ? 'the model settings' : !deployments.data ? 'the deployments' : undefined;

  // Settings first: a deployment for a newly allowed model is then routable the moment it is saved.
  // The two are separate admin endpoints, so a failure of the second leaves the first saved (and the
  // draft still shows what is left to save). The deployments have a draft only once their list is
  // read: until then (or when it could not be read) the settings are all there is to save.
  const save = async (): Promise<void> => {
    if (!draft || problems.length > 0) return;
    const inputs: DeploymentInput[] = [];
    for (const item of deploymentDrafts ?? []) {
      const { input } = toDeploymentInput(item);
      if (input) inputs.push(input);
    }
    // Either may fail: the bar must show this save's failure, not one left from an earlier save.
    update.reset();
    updateDeployments.reset();
    try {
      if (settingsDirty) settingsDraft.saved(await update.mutateAsync(settingsOfDraft(draft)));
      if (deploymentsDirty) deploymentsDraft.saved(await updateDeployments.mutateAsync({ deployments: inputs }));
      showToast('Model settings saved');
    } catch {
      // shown below from the mutation's error
    }
  };
  const reset = async (): Promise<void> => {
    try {
      if (settings.data?.source === 'database') await update.mutateAsync({ reset: true });
      if (deployments.data?.source === 'database') await updateDeployments.mutateAsync({ reset: true });
      showToast('Model settings reset to the startup configuration');
    } catch {
      // shown below
    }
  };
  const discard = (): void => {
    settingsDraft.discard();
    deploymentsDraft.discard();
    update.reset();
    updateDeployments.reset();
  };
  const changedElsewhere =
    (settingsDirty && settingsDraft.changedElsewhere) || (deploymentsDirty && deploymentsDraft.changedElsewhere);

  return (
    <>
      <PageHeader
        title="Models"
        subtitle={
          settings.data
            ? `Changes apply at once, without a restart. Source: ${settings.data.source === 'database' ? `edited here${settings.data.updated_at ? ` ${timeAgo(settings.data.updated_at)}` : ''}` : 'startup configuration'}.`
            : undefined
        }
        actions={
          fromDatabase && (
            <Button
              variant="ghost"
              busy={saving && !dirty}
              disabled={resetWaitsFor !== undefined}
              title={resetWaitsFor && `Available once ${resetWaitsFor} are loaded`}
              onClick={() => setConfirmingReset(true)}
            >
              Reset to startup configuration
            </Button>
          )
        }
      />
      <PageBody>
        {settings.isPending || !draft ? (
          settings.isError ? (
            <ErrorMessage
              error={settings.error}
              title="Could not load the model settings"
              onRetry={() => void settings.refetch()}
              retrying={settings.isFetching}
            />
          ) : (
            <Loading />
          )
        ) : (
          <>
            <section className="panel">
              <h2 className="panel-title">Allowed models</h2>
              <p className="panel-text">
                Requests for any other model are refused with model_not_allowed. A cap lowers max_tokens for that model.
                Prices (US dollars per million tokens) give requests their cost, which dollar budgets count; cache
                prices are set through the admin API or the configuration file.
              </p>
              <AllowedModels
                draft={draft}
                providers={settings.data?.providers ?? {}}
                unpriced={settings.data?.unpriced_models ?? []}
                problems={pricesProblems}
                onChange={setDraft}
                onRemove={setRemoving}
                adding={newModel}
                onAddingChange={setNewModel}
              />
            </section>
            <ModelLimitsPanel limits={settings.data?.model_limits ?? {}} />
            <section className="panel">
              <h2 className="panel-title">Aliases</h2>
              <p className="panel-text">
                Names clients may send, rewritten to an allowed model before anything else. Aliases are not listed by
                /v1/models.
              </p>
              <Aliases
                draft={draft}
                onChange={setDraft}
                adding={newAlias}
                onAddingChange={setNewAlias}
                problems={listedProblems}
              />
            </section>
            <section className="panel">
              <h2 className="panel-title">Embeddings</h2>
              <Field
                label="Default embedding model"
                htmlFor="default-embedding"
                hint="Used when an embeddings request names no model."
              >
                <Select
                  id="default-embedding"
                  value={draft.default_embedding_model ?? ''}
                  onChange={(event) => setDraft({ ...draft, default_embedding_model: event.target.value || null })}
                >
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
              <p className="panel-text">
                The upstreams behind model names, tried by weight with fallback.
                {deployments.data &&
                  ` Source: ${deployments.data.source === 'database' ? 'edited here' : 'startup configuration'}.`}
              </p>
              {deployments.isError ? (
                <ErrorMessage
                  error={deployments.error}
                  title="Could not load the deployments"
                  onRetry={() => void deployments.refetch()}
                  retrying={deployments.isFetching}
                />
              ) : !deploymentDrafts ? (
                <Loading />
              ) : (
                <DeploymentsPanel
                  drafts={deploymentDrafts}
                  models={draft.allowed_models}
                  onChange={setDeploymentDrafts}
                />
              )}
            </section>
            {/* A save's failure shows in the save bar; this is a reset's, which has no bar. */}
            {!dirty && update.error && <ErrorMessage error={update.error} title="Could not reset the model settings" />}
            {!dirty && updateDeployments.error && (
              <ErrorMessage error={updateDeployments.error} title="Could not reset the deployments" />
            )}
          </>
        )}
      </PageBody>
      {removing !== null && draft && (
        <ModelRemovalDialog
          model={removing}
          dependants={modelDependants(
            removing,
            draft,
            deploymentDrafts ?? [],
            keys.data?.data,
            settings.data?.model_limits ?? {},
          )}
          keys={keys}
          onConfirm={() => setDraft(draftWithoutModel(draft, removing))}
          onClose={() => setRemoving(null)}
        />
      )}
      {confirmingReset && (
        <ConfirmDialog
          testId="reset-models-dialog"
          title="Reset the model settings to the startup configuration?"
          description={resetDescription(settings.data, deployments.data)}
          confirmLabel="Reset model settings"
          onConfirm={() => void reset()}
          onClose={() => setConfirmingReset(false)}
        />
      )}
      {dirty && (
        <SaveBar
          screen="Models"
          onDiscard={discard}
          onSave={() => void save()}
          busy={saving}
          blocker={blockerOf(problems)}
          error={updateDeployments.error ?? update.error}
          draft={JSON.stringify([draft, deploymentDrafts, newModel, newAlias])}
          saveTestId="save-models"
        >
          Unsaved changes to the{' '}
          {settingsDirty && deploymentsDirty
            ? 'model settings and deployments'
            : deploymentsDirty
              ? 'deployments'
              : 'model settings'}
          {changedElsewhere && (
            <span data-testid="changed-elsewhere">
              {' '}
              — changed elsewhere meanwhile: Save overwrites that change, Discard loads it
            </span>
          )}
        </SaveBar>
      )}
    </>
  );
}
