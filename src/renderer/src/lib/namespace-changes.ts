import type { NamespaceSummary } from '../../../shared/store-api.js';

/** What moves in a namespace's summary when a revision is written, a branch or a checkpoint made or deleted, or history pruned. */
function signature(entry: NamespaceSummary): string {
  return `${entry.head_revision}:${entry.revisions}:${entry.branches}:${entry.checkpoints}`;
}

/** The namespaces whose summary differs between two readings of the store's list, added and gone ones too. */
export function changedNamespaces(
  before: readonly NamespaceSummary[],
  after: readonly NamespaceSummary[],
): readonly string[] {
  const old = new Map(before.map((entry) => [entry.name, signature(entry)]));
  const listed = new Set(after.map((entry) => entry.name));
  return [
    ...after.filter((entry) => old.get(entry.name) !== signature(entry)).map((entry) => entry.name),
    ...before.filter((entry) => !listed.has(entry.name)).map((entry) => entry.name),
  ];
}
