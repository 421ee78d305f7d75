import type { Checkpoint } from '../../../../shared/store-api.js';
import type { StoreScope } from '../../api/query-keys.js';
import { href, Link } from '../../app/router.js';

/** Says that the checkpoint on screen belongs to another branch than the one picked, and links to it there. */
export function CheckpointElsewhere({
  checkpoint,
  scope,
}: {
  readonly checkpoint: Checkpoint;
  readonly scope: StoreScope;
}) {
  return (
    <p className="revision-note" data-testid="checkpoint-elsewhere">
      Checkpoint “{checkpoint.name}” is on {checkpoint.branch}, not in the history of {scope.branch}. Restore copies its
      documents into {scope.branch} as a new revision.{' '}
      <Link
        to={href('store/documents', { ns: scope.namespace, branch: checkpoint.branch, checkpoint: checkpoint.name })}
      >
        Show it on {checkpoint.branch}
      </Link>
    </p>
  );
}
