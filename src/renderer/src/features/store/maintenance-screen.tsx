import { useRef, useState } from 'react';
import type { NamespaceSummary } from '../../../../shared/store-api.js';
import { useNamespaces } from '../../api/store-queries.js';
import { useGc, useGcCompact } from '../../api/store-mutations.js';
import { href, Link } from '../../app/router.js';
import { Button } from '../../components/button.js';
import { DataTable, type Column } from '../../components/data-table.js';
import { ConfirmFooter, Dialog } from '../../components/dialog.js';
import { ErrorMessage } from '../../components/feedback.js';
import { Field, TextInput } from '../../components/field.js';
import { PageBody, PageHeader } from '../../components/page.js';
import { QueryView } from '../../components/query-view.js';
import { showToast } from '../../components/toast.js';
import { formatBytes, formatInt, plural, timeAgo } from '../../lib/format.js';
import { useActionAccess } from './action-access.js';
import { KEEP_LABEL, parseKeep } from './gc-keep.js';

const columns: Column<NamespaceSummary>[] = [
  {
    header: 'Namespace',
    cell: (ns) => (
      <Link to={href('store/history', { ns: ns.name, branch: 'main' })} className="mono">
        {ns.name}
      </Link>
    ),
  },
  { header: 'Revisions', align: 'right', cell: (ns) => formatInt(ns.revisions) },
  { header: 'Branches', align: 'right', cell: (ns) => formatInt(ns.branches) },
  { header: 'Checkpoints', align: 'right', cell: (ns) => formatInt(ns.checkpoints) },
  { header: 'Latest', align: 'right', cell: (ns) => <span className="mono">#{ns.head_revision}</span> },
  { header: 'Created', align: 'right', className: 'cell-nowrap', cell: (ns) => timeAgo(ns.created_at) },
];

/** What a prune with this `keep` leaves and what it takes, as the store's gc decides it. */
function pruneTerms(keep: number): { readonly kept: string; readonly deleted: string } {
  const newest = keep === 1 ? 'the newest revision' : `the newest ${formatInt(keep)} revisions`;
  return {
    kept: `Kept in every namespace you may administer: ${newest} of each branch, every revision a checkpoint points at, and each branch’s base revision. All of them stay fully readable.`,
    deleted:
      'Deleted for good: every other revision with its changes, and the document contents and keys no kept revision uses.',
  };
}

/** Garbage collection: how many revisions a `keep` would prune (dry run), then a confirmed prune. */
function GcPanel() {
  const [keepText, setKeepText] = useState('10');
  const parsed = parseKeep(keepText);
  const keep = 'keep' in parsed ? parsed.keep : undefined;
  const preview = useGc();
  const prune = useGc();
  const compact = useGcCompact();
  const [confirming, setConfirming] = useState(false);
  const [confirmingCompact, setConfirmingCompact] = useState(false);
  // What the last answer said is free in the database file: a prune's (after its sweep), else the preview's.
  const [freeBytes, setFreeBytes] = useState<number>();
  const keepInput = useRef<HTMLInputElement>(null);
  // gc covers every namespace the token may administer, so it is offered when there is any.
  const actions = useActionAccess();
  const run = (): void => {
    if (keep !== undefined) preview.mutate({ keep, dryRun: true }, { onSuccess: (r) => setFreeBytes(r.free_bytes) });
  };
  const wouldPrune = preview.data?.pruned;
  // Prunes with the keep that was previewed (typing again clears the preview).
  const previewedKeep = preview.variables?.keep;
  const runCompact = (): void => {
    if (previewedKeep === undefined) return;
    compact.mutate(previewedKeep, {
      onSuccess: (result) => {
        setConfirmingCompact(false);
        preview.reset();
        setFreeBytes(result.free_bytes);
        const pruned = result.pruned > 0 ? `Pruned ${plural(result.pruned, 'revision')}; compacted` : 'Compacted';
        showToast(`${pruned}: ${formatBytes(result.compacted_bytes ?? 0)} given back to the disk`);
      },
    });
  };
  const runPrune = (): void => {
    if (previewedKeep === undefined) return;
    prune.mutate(
      { keep: previewedKeep, dryRun: false },
      {
        onSuccess: (result) => {
          setConfirming(false);
          preview.reset();
          setFreeBytes(result.free_bytes);
          showToast(`Pruned ${plural(result.pruned, 'revision')}`);
        },
      },
    );
  };
  return (
    <section className="panel" data-testid="gc-panel">
      <h2 className="panel-title">Garbage collection</h2>
      <p className="panel-text">
        Keeps the newest revisions of every branch, plus every revision a checkpoint or a branch base points at, in
        every namespace you may administer. What is kept stays fully readable; older history and content nothing
        references are deleted for good.
      </p>
      {actions.note(['admin'])}
      <form
        className="gc-form"
        onSubmit={(event) => {
          event.preventDefault();
          run();
        }}
      >
        <Field label={KEEP_LABEL} htmlFor="gc-keep" error={'problem' in parsed ? parsed.problem : undefined}>
          {/* The buttons share the input's row, so a problem shown under it does not push them down. */}
          <div className="gc-keep-row">
            <TextInput
              id="gc-keep"
              ref={keepInput}
              inputMode="numeric"
              value={keepText}
              onChange={(event) => {
                setKeepText(event.target.value);
                preview.reset();
              }}
            />
            <Button
              type="submit"
              busy={preview.isPending}
              data-testid="gc-preview"
              {...actions.guard('admin', { disabled: keep === undefined })}
            >
              Preview
            </Button>
            {wouldPrune !== undefined && (
              <Button
                variant="danger"
                onClick={() => setConfirming(true)}
                {...actions.guard('admin', { disabled: wouldPrune === 0 })}
                data-testid="gc-run"
              >
                Prune {plural(wouldPrune, 'revision')}
              </Button>
            )}
            {wouldPrune !== undefined && (
              <Button
                variant="secondary"
                onClick={() => setConfirmingCompact(true)}
                {...actions.guard('admin')}
                data-testid="gc-compact"
              >
                {wouldPrune === 0 ? 'Compact…' : 'Prune and compact…'}
              </Button>
            )}
          </div>
        </Field>
      </form>
      {/* Always in the document, so the preview's count is announced (and awaited) as a status when it arrives. */}
      <div role="status">
        {wouldPrune !== undefined && (
          <p className="panel-text" data-testid="gc-result">
            {wouldPrune === 0
              ? 'Nothing to prune: every revision is within the newest to keep or protected.'
              : `${plural(wouldPrune, 'revision')} would be pruned.`}
          </p>
        )}
        {freeBytes !== undefined && (
          <p className="panel-text" data-testid="gc-free">
            {freeBytes === 0
              ? 'The database file has no free space to give back.'
              : `${formatBytes(freeBytes)} of the database file is free, kept for later writes; a compact gives it back to the disk.`}
          </p>
        )}
      </div>
      {preview.error && <ErrorMessage error={preview.error} title="Could not preview garbage collection" />}
      {confirmingCompact && (
        <Dialog
          title={wouldPrune ? `Prune ${plural(wouldPrune, 'revision')} and compact?` : 'Compact the database?'}
          description="Gatehouse stops answering, the gateway included, while the database is rewritten."
          onClose={() => setConfirmingCompact(false)}
          returnFocus={() => keepInput.current}
          footer={
            <ConfirmFooter
              variant="danger"
              busy={compact.isPending}
              testId="gc-compact-confirm"
              onCancel={() => setConfirmingCompact(false)}
              onConfirm={runCompact}
            >
              {wouldPrune ? 'Prune and compact' : 'Compact'}
            </ConfirmFooter>
          }
        >
          {previewedKeep !== undefined && wouldPrune !== 0 && (
            <p className="panel-text">{pruneTerms(previewedKeep).deleted}</p>
          )}
          <p className="panel-text">
            Compacting rewrites the whole database file without its free space (SQLite’s VACUUM), then gives that space
            back to the disk. It takes about a second per 100 MB of database, and needs free disk of about twice its
            size meanwhile. Requests wait until it is done.
          </p>
          {compact.error && <ErrorMessage error={compact.error} title="Compacting failed" />}
        </Dialog>
      )}
      {confirming && (
        <Dialog
          title={`Prune ${plural(wouldPrune ?? 0, 'revision')}?`}
          description="This cannot be undone."
          onClose={() => setConfirming(false)}
          // A prune uses up its preview, and the Prune button with it: the keep field is next.
          returnFocus={() => keepInput.current}
          footer={
            <ConfirmFooter
              variant="danger"
              busy={prune.isPending}
              testId="gc-confirm"
              onCancel={() => setConfirming(false)}
              onConfirm={runPrune}
            >
              Prune
            </ConfirmFooter>
          }
        >
          {previewedKeep !== undefined && (
            <>
              <p className="panel-text">{pruneTerms(previewedKeep).kept}</p>
              <p className="panel-text">{pruneTerms(previewedKeep).deleted}</p>
            </>
          )}
          {prune.error && <ErrorMessage error={prune.error} title="Garbage collection failed" />}
        </Dialog>
      )}
    </section>
  );
}

/** Store-wide upkeep: namespaces at a glance and garbage collection. */
export function MaintenanceScreen() {
  const namespaces = useNamespaces();
  return (
    <>
      <PageHeader title="Maintenance" subtitle="Every namespace of the store, and pruning of old history." />
      <PageBody>
        <section className="panel">
          <h2 className="panel-title">Namespaces</h2>
          <QueryView
            query={namespaces}
            errorTitle="Could not load the namespaces"
            empty={(data) => data.namespaces.length === 0 && <p className="muted">The store is empty.</p>}
          >
            {(data) => (
              <DataTable label="Namespaces" rows={data.namespaces} columns={columns} rowKey={(ns) => ns.name} />
            )}
          </QueryView>
        </section>
        <GcPanel />
      </PageBody>
    </>
  );
}
