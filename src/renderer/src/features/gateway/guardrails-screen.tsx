import { useMemo, useState, type ComponentProps } from 'react';
import { PII_ENTITY_TYPES, PII_MODES, type PiiMode } from '../../../../shared/guardrails-api.js';
import {
  useContentPolicySettings,
  usePiiSettings,
  useUpdateContentPolicySettings,
  useUpdatePiiSettings,
} from '../../api/guardrails-queries.js';
import { Button } from '../../components/button.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { ErrorMessage, Loading } from '../../components/feedback.js';
import { Field, TextArea, TextInput } from '../../components/field.js';
import { PageBody, PageHeader } from '../../components/page.js';
import { blockerOf, SaveBar } from '../../components/save-bar.js';
import { problemsAt } from '../../lib/field-problems.js';
import { Segmented } from '../../components/segmented.js';
import { showToast } from '../../components/toast.js';
import { useServerDraft } from '../../lib/use-server-draft.js';
import { draftOf, draftProblems, GUARDRAILS_FIELD_IDS, updatesOf } from './guardrails-form.js';
import { OverridesTable } from './guardrails-overrides.js';

const MODE_LABELS: Readonly<Record<PiiMode, string>> = {
  off: 'Off',
  mask: 'Mask and restore',
  redact: 'Redact',
  block: 'Block',
};

const MODE_HINTS: Readonly<Record<PiiMode, string>> = {
  off: 'Requests go upstream as sent.',
  mask: 'Upstreams see placeholders such as [EMAIL_1]; answers get the originals back (secrets never).',
  redact: 'Upstreams and clients see placeholders; nothing is restored.',
  block: 'Requests carrying any chosen entity are refused with 400 content_policy_violation.',
};

/** PII mode and entity types, blocked request and answer patterns and the input token limit, with per-model and per-key overrides. */
export function GuardrailsScreen() {
  const pii = usePiiSettings();
  const policy = useContentPolicySettings();
  const updatePii = useUpdatePiiSettings();
  const updatePolicy = useUpdateContentPolicySettings();
  const saving = updatePii.isPending || updatePolicy.isPending;
  const server = useMemo(
    () => (pii.data && policy.data ? { pii: pii.data, policy: policy.data } : undefined),
    [pii.data, policy.data],
  );
  // The edits stay until saved or discarded: the PII settings come back saved before the content
  // policy is sent, and a refused policy must leave every edit on screen to fix and save again.
  const serverDraft = useServerDraft(server, (both) => draftOf(both.pii, both.policy));
  const { draft, setDraft } = serverDraft;
  const saved = server ? draftOf(server.pii, server.policy) : undefined;
  const dirty = Boolean(saved && draft && JSON.stringify(saved) !== JSON.stringify(draft));
  const problems = draft ? draftProblems(draft) : [];
  const fromDatabase = pii.data?.source === 'database' || policy.data?.source === 'database';

  const save = async (): Promise<void> => {
    if (!draft || problems.length > 0) return;
    const updates = updatesOf(draft);
    // Either may fail: the bar must show this save's failure, not one left from an earlier save.
    updatePii.reset();
    updatePolicy.reset();
    try {
      const piiSaved = await updatePii.mutateAsync(updates.pii);
      serverDraft.saved({ pii: piiSaved, policy: await updatePolicy.mutateAsync(updates.policy) });
      showToast('PII and content policy saved');
    } catch {
      // shown in the save bar
    }
  };
  const [confirmingReset, setConfirmingReset] = useState(false);
  const reset = async (): Promise<void> => {
    try {
      if (pii.data?.source === 'database') await updatePii.mutateAsync({ reset: true });
      if (policy.data?.source === 'database') await updatePolicy.mutateAsync({ reset: true });
      showToast('PII and content policy reset to the startup configuration');
    } catch {
      // shown below
    }
  };

  const failed = pii.error ?? policy.error;
  return (
    <>
      <PageHeader
        title="PII & policy"
        subtitle="What leaves for the providers: personal data scrubbed, content refused. Changes apply at once, without a restart."
        actions={
          fromDatabase && (
            <Button variant="ghost" busy={saving && !dirty} onClick={() => setConfirmingReset(true)}>
              Reset to startup configuration
            </Button>
          )
        }
      />
      <PageBody>
        {!draft ? (
          failed ? (
            <ErrorMessage
              error={failed}
              title="Could not load the PII and content-policy settings"
              onRetry={() => {
                if (pii.isError) void pii.refetch();
                if (policy.isError) void policy.refetch();
              }}
              retrying={pii.isFetching || policy.isFetching}
            />
          ) : (
            <Loading />
          )
        ) : (
          <>
            <section className="panel" data-testid="pii-panel">
              <h2 className="panel-title">PII scrubbing</h2>
              <p className="panel-text">{MODE_HINTS[draft.mode]}</p>
              <Segmented
                label="PII mode"
                options={PII_MODES.map((mode) => ({ value: mode, label: MODE_LABELS[mode] }))}
                value={draft.mode}
                onChange={(mode) => setDraft({ ...draft, mode })}
              />
              <fieldset className="checkbox-grid" aria-label="Entity types">
                {PII_ENTITY_TYPES.map((type) => (
                  <label key={type} className="checkbox">
                    <input
                      type="checkbox"
                      checked={draft.entities.includes(type)}
                      onChange={(event) =>
                        setDraft({
                          ...draft,
                          entities: event.target.checked
                            ? PII_ENTITY_TYPES.filter((t) => t === type || draft.entities.includes(t))
                            : draft.entities.filter((t) => t !== type),
                        })
                      }
                    />
                    <span className="mono">{type}</span>
                  </label>
                ))}
              </fieldset>
            </section>
            <section className="panel" data-testid="policy-panel">
              <h2 className="panel-title">Content policy</h2>
              <p className="panel-text">
                Requests matching a pattern, or over the token limit, are refused with 400 content_policy_violation
                before any provider is called. Answers matching an answer pattern are stopped.
              </p>
              <PatternLinesField
                label="Blocked patterns"
                id={GUARDRAILS_FIELD_IDS.patterns}
                error={problemsAt(problems, GUARDRAILS_FIELD_IDS.patterns)}
                hint="One regular expression per line, matched case-insensitively against every text of a request."
                rows={4}
                value={draft.patterns}
                onChange={(patterns) => setDraft({ ...draft, patterns })}
              />
              <PatternLinesField
                label="Blocked answer patterns"
                id={GUARDRAILS_FIELD_IDS.answerPatterns}
                error={problemsAt(problems, GUARDRAILS_FIELD_IDS.answerPatterns)}
                hint="One regular expression per line, matched case-insensitively against what the model answers (text, refusals, tool-call arguments). A match stops the answer as the provider's content filter would; a stream stops at the delta that completes it, and what was sent before it stays sent."
                rows={3}
                value={draft.answerPatterns}
                onChange={(answerPatterns) => setDraft({ ...draft, answerPatterns })}
              />
              <Field
                label="Max input tokens"
                htmlFor={GUARDRAILS_FIELD_IDS.maxTokens}
                error={problemsAt(problems, GUARDRAILS_FIELD_IDS.maxTokens)}
                hint="Counted with the o200k_base tokenizer over every text of a request. Empty: no limit."
              >
                <TextInput
                  id={GUARDRAILS_FIELD_IDS.maxTokens}
                  className="input-narrow"
                  inputMode="numeric"
                  placeholder="No limit"
                  value={draft.maxTokens}
                  onChange={(event) => setDraft({ ...draft, maxTokens: event.target.value.trim() })}
                />
              </Field>
            </section>
            <section className="panel">
              <h2 className="panel-title">Overrides</h2>
              <p className="panel-text">
                A key's setting wins over its model's, which wins over the gateway's; blank fields inherit.
              </p>
              <OverridesTable draft={draft} problems={problems} onChange={setDraft} />
            </section>
            {/* A save's failure shows in the save bar; this is a reset's, which has no bar. */}
            {!dirty && updatePii.error && (
              <ErrorMessage error={updatePii.error} title="Could not reset the PII settings" />
            )}
            {!dirty && updatePolicy.error && (
              <ErrorMessage error={updatePolicy.error} title="Could not reset the content policy" />
            )}
          </>
        )}
      </PageBody>
      {confirmingReset && (
        <ConfirmDialog
          testId="reset-guardrails-dialog"
          title="Reset PII and the content policy to the startup configuration?"
          description="The modes, entity types, overrides and blocked terms changed at run time (on this screen or through the admin API) are replaced by the startup configuration's. It cannot be undone."
          confirmLabel="Reset PII and policy"
          onConfirm={() => void reset()}
          onClose={() => setConfirmingReset(false)}
        />
      )}
      {(dirty || saving) && (
        <SaveBar
          screen="PII & policy"
          onDiscard={() => {
            serverDraft.discard();
            updatePii.reset();
            updatePolicy.reset();
          }}
          onSave={() => void save()}
          busy={saving}
          blocker={blockerOf(problems)}
          error={updatePolicy.error ?? updatePii.error}
          // The PII settings go first: when only the content policy was refused, they are in force now,
          // and Discard keeps them, so the bar must not say that nothing was saved.
          failureLead={
            updatePii.isSuccess && updatePolicy.isError ? 'PII settings saved, content policy not saved' : undefined
          }
          draft={JSON.stringify(draft)}
          saveTestId="save-guardrails"
        >
          Unsaved changes to PII and content policy
        </SaveBar>
      )}
    </>
  );
}

/** A list of regular expressions, one per line, in a monospaced text area. */
function PatternLinesField(props: {
  readonly label: string;
  readonly id: string;
  readonly error: ComponentProps<typeof Field>['error'];
  readonly hint: string;
  readonly rows: number;
  readonly value: string;
  readonly onChange: (value: string) => void;
}) {
  return (
    <Field label={props.label} htmlFor={props.id} error={props.error} hint={props.hint}>
      <TextArea
        id={props.id}
        rows={props.rows}
        className="mono"
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
      />
    </Field>
  );
}
