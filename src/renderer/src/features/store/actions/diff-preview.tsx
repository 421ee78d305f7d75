import type { Change } from '../../../../../shared/store-api.js';
import { ErrorMessage, Loading } from '../../../components/feedback.js';
import { useRetryOfFailedRead } from '../../../components/query-view.js';
import { plural } from '../../../lib/format.js';
import { ChangesView } from '../changes-view.js';

/** The changes an action would make, shown before the user confirms it. */
export function DiffPreview({
  changes,
  error,
  title = 'Preview',
  summary,
  emptyText,
  testId = 'action-preview',
}: {
  readonly changes: readonly Change[] | undefined;
  readonly error?: unknown;
  readonly title?: string;
  /** Says what the changes amount to, instead of how many documents would change. */
  readonly summary?: string;
  readonly emptyText: string;
  /** Tells a dialog's previews apart when it shows more than one. */
  readonly testId?: string;
}) {
  // The dialogs hand over the error of whichever read the preview needs: that read is asked again.
  const { retry, retrying } = useRetryOfFailedRead(error);
  return (
    <section className="preview" data-testid={testId}>
      <div className="preview-header">
        <span className="section-title">{title}</span>
        {changes && (
          <span className="muted">
            {summary ?? (changes.length ? plural(changes.length, 'document') + ' would change' : '')}
          </span>
        )}
      </div>
      <div className="preview-body">
        {error ? (
          <ErrorMessage error={error} title="Could not compute the preview" onRetry={retry} retrying={retrying} />
        ) : changes ? (
          <ChangesView changes={changes} emptyText={emptyText} />
        ) : (
          <Loading label="Computing the preview…" />
        )}
      </div>
    </section>
  );
}
