import { useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  modelSettingsOf,
  type DeploymentInput,
  type DeploymentList,
  type PricedModelSettingsView,
} from '../../../../shared/gateway-api.js';
import { useServerDraft } from '../../lib/use-server-draft.js';
import {
  isConflict,
  useApiKeys,
  useDeployments,
  useModelSettings,
  useUpdateDeployments,
  useUpdateModelSettings,
  type Tagged,
} from '../../api/gateway-queries.js';
import { queryKeys } from '../../api/query-keys.js';
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
  capProblems,
  priceProblems,
  settingsDraftOf,
  settingsOfDraft,
  typedEntryProblems,
  type NewAlias,
} from './model-settings-form.js';
import { ModelLimitsPanel } from './model-limits-panel.js';
import type { DeploymentDraft } from './deployment-form.js';
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
      `the allowed models, caps and prices changed at run time, and ${aliases === 1 ? '1 alias' : `${aliases} aliases`}`,
    );
  }
  const count = deployments?.source === 'database' ? deployments.data.length : 0;
  if (deployments?.source === 'database')
    lost.push(
      count === 0
        ? 'the deployment list changed at run time (empty)'
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
  const deploymentsDraft = useServerDraft(deployments.data, (list) =>
    list.data.map((view) => draftOf(view, list.defaults)),
  );
  const { draft: deploymentDrafts, setDraft: setDeploymentDrafts } = deploymentsDraft;
  const settingsDirty = Boolean(
    settings.data && draft && JSON.stringify(settingsDraftOf(settings.data)) !== JSON.stringify(draft),
  );
  const deploymentsDirty = Boolean(
    deployments.data && deploymentDrafts && deploymentsChanged(deploymentDrafts, deployments.data),
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
  const pricesProblems = draft ? [...capProblems(draft), ...priceProblems(draft)] : [];
  const problems = draft
    ? [...pricesProblems, ...listedProblems, ...typedEntryProblems(draft, newModel, newAlias)]
    : listedProblems;
  const client = useQueryClient();
  // The server data each draft was taken from: a save sends its ETag as If-Match, so a change made
  // elsewhere meanwhile is refused rather than overwritten. It follows the server while there is no edit.
  const settingsBase = useRef<Tagged<PricedModelSettingsView>>(undefined);
  if (settings.data && (!settingsDirty || !settingsBase.current)) settingsBase.current = settings.data;
  const deploymentsBase = useRef<Tagged<DeploymentList>>(undefined);
  if (deployments.data && (!deploymentsDirty || !deploymentsBase.current)) deploymentsBase.current = deployments.data;
  // What a save that failed half way did with the half that went through (said beside the failure).
  const [failureLead, setFailureLead] = useState<string>();
  // The edits set aside to load another admin's change, until put back or dropped.
  const [setAside, setSetAside] = useState<{
    readonly settings: NonNullable<typeof draft>;
    readonly deployments: DeploymentDraft[] | undefined;
    /** The ids of the deployments the edits were made on: any other was added elsewhere. */
    readonly baseIds: ReadonlySet<string>;
  }>();
  const saving = update.isPending || updateDeployments.isPending;
  const fromDatabase = settings.data?.source === 'database' || deployments.data?.source === 'database';
  // A reset replaces both, and asks first naming what goes: it waits until both are known.
  const resetWaitsFor = !settings.data ? 'the model settings' : !deployments.data ? 'the deployments' : undefined;

  // Settings first: a deployment for a newly allowed model is then routable the moment it is saved. One
  // Save applies both or neither: the settings are not shown as saved until the deployments are too,
  // and when the deployments are refused (their input, or a change made elsewhere), the settings are
  // put back as they were, with the ETag their save answered (so a change made since is not undone).
  // The deployments have a draft only once their list is read: until then the settings are all there is.
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
    setFailureLead(undefined);
    const previous = settingsBase.current;
    let savedSettings: Tagged<PricedModelSettingsView> | undefined;
    try {
      if (settingsDirty)
        savedSettings = await update.mutateAsync({
          body: settingsOfDraft(draft),
          base: previous,
          show: !deploymentsDirty,
        });
      if (deploymentsDirty)
        deploymentsDraft.saved(
          await updateDeployments.mutateAsync({ body: { deployments: inputs }, base: deploymentsBase.current }),
        );
      if (savedSettings) {
        client.setQueryData(queryKeys.gateway.models, savedSettings);
        settingsDraft.saved(savedSettings);
      }
      showToast('Model settings saved');
    } catch {
      // The failure is shown in the bar from the mutation's error; here only a half save is taken back.
      if (savedSettings && previous) await takeBack(previous, savedSettings, draft);
    }
  };
  const takeBack = async (
    previous: Tagged<PricedModelSettingsView>,
    savedSettings: Tagged<PricedModelSettingsView>,
    sent: NonNullable<typeof draft>,
  ): Promise<void> => {
    try {
      // Settings that came from the configuration file go back to it (a reset), not to a copy of its
      // values saved at run time: that copy would keep later edits of the file from applying.
      const body = previous.source === 'config' ? { reset: true as const } : modelSettingsOf(previous);
      await update.mutateAsync({ body, base: savedSettings, show: false });
      setFailureLead('Nothing saved (the model settings saved with them were put back)');
      // The live updates may have shown the half save meanwhile, and the draft followed it: the draft
      // goes back to what was sent, over the settings as they are now (its base for the next Save).
      const now = await settings.refetch();
      if (now.data) {
        settingsDraft.saved(now.data);
        settingsBase.current = now.data;
      }
      setDraft(sent);
    } catch (error) {
      client.setQueryData(queryKeys.gateway.models, savedSettings);
      settingsDraft.saved(savedSettings);
      setFailureLead(
        `The model settings are saved, the deployments not (putting the settings back failed: ${error instanceof Error ? error.message : String(error)})`,
      );
    }
  };
  // Another admin's change, loaded; this draft's edits are kept aside to be put back on top of it.
  const reloadTheirs = (): void => {
    if (draft)
      setSetAside({
        settings: draft,
        deployments: deploymentDrafts,
        baseIds: new Set(deploymentsBase.current?.data.map((deployment) => deployment.id)),
      });
    discard();
    void settings.refetch();
    void deployments.refetch();
  };
  const putEditsBack = (): void => {
    if (!setAside) return;
    setDraft(setAside.settings);
    // Deployments added elsewhere stay: the edits could not have meant to remove what they never saw.
    const mine = new Set(setAside.deployments?.map((item) => item.id));
    const addedElsewhere = (deploymentDrafts ?? []).filter(
      (item) => !setAside.baseIds.has(item.id) && !mine.has(item.id),
    );
    if (setAside.deployments) setDeploymentDrafts([...setAside.deployments, ...addedElsewhere]);
    setSetAside(undefined);
  };
  const reset = async (): Promise<void> => {
    try {
      if (settings.data?.source === 'database') await update.mutateAsync({ body: { reset: true } });
      if (deployments.data?.source === 'database') await updateDeployments.mutateAsync({ body: { reset: true } });
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
    setFailureLead(undefined);
  };
  // Compared on what the screen edits: the settings' view also carries counters that move with traffic.
  const settingsChangedElsewhere = Boolean(
    settingsDirty &&
    settings.data &&
    settingsBase.current &&
    JSON.stringify(modelSettingsOf(settings.data)) !== JSON.stringify(modelSettingsOf(settingsBase.current)),
  );
  const deploymentsChangedElsewhere = Boolean(
    deploymentsDirty &&
    deployments.data &&
    deploymentsBase.current &&
    JSON.stringify(deployments.data.data) !== JSON.stringify(deploymentsBase.current.data),
  );
  const saveError = updateDeployments.error ?? update.error;
  const conflict = isConflict(saveError) || settingsChangedElsewhere || deploymentsChangedElsewhere;
  const sourceWords = (source: string, updatedAt?: string | null): string =>
    source === 'database'
      ? `changed at run time (this screen or the admin API)${updatedAt ? ` ${timeAgo(updatedAt)}` : ''}; the configuration file's are not in force`
      : 'startup configuration';

  return (
    <>
      <PageHeader
        title="Models"
        subtitle={
          settings.data
            ? `Changes apply at once, without a restart. Source: ${sourceWords(settings.data.source, settings.data.updated_at)}.`
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
        {setAside && (
          <div className="panel" role="status" data-testid="edits-set-aside">
            <p className="panel-text">
              The models and deployments are shown as they are now, with the other change. Your edits are set aside.
            </p>
            <Button variant="secondary" onClick={putEditsBack} data-testid="put-edits-back">
              Put my edits back on top (Save then replaces what they changed, keeping what they added)
            </Button>{' '}
            <Button variant="ghost" onClick={() => setSetAside(undefined)}>
              Drop my edits
            </Button>
          </div>
        )}
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
                {deployments.data && ` Source: ${sourceWords(deployments.data.source, deployments.data.updated_at)}.`}
              </p>
              {deployments.isError ? (
                <ErrorMessage
                  error={deployments.error}
                  title="Could not load the deployments"
                  onRetry={() => void deployments.refetch()}
                  retrying={deployments.isFetching}
                />
              ) : !deploymentDrafts || !deployments.data ? (
                <Loading />
              ) : (
                <DeploymentsPanel
                  drafts={deploymentDrafts}
                  defaults={deployments.data.defaults}
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
          error={saveError}
          failureLead={failureLead}
          draft={JSON.stringify([draft, deploymentDrafts, newModel, newAlias])}
          saveTestId="save-models"
        >
          Unsaved changes to the{' '}
          {settingsDirty && deploymentsDirty
            ? 'model settings and deployments'
            : deploymentsDirty
              ? 'deployments'
              : 'model settings'}
          {conflict && (
            <span data-testid="changed-elsewhere">
              {' '}
              — someone changed the{' '}
              {settingsChangedElsewhere || (isConflict(update.error) && !deploymentsChangedElsewhere)
                ? 'models'
                : 'deployments'}{' '}
              since you opened this: Save would not overwrite it.{' '}
              <Button size="sm" variant="secondary" onClick={reloadTheirs} data-testid="reload-theirs">
                Reload (your draft is kept)
              </Button>
            </span>
          )}
        </SaveBar>
      )}
    </>
  );
}
