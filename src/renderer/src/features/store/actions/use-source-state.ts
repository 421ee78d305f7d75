import type { StoreScope } from '../../../api/query-keys.js';
import { useBranches, useCheckpoints, useStoreState } from '../../../api/store-queries.js';
import { useRevisionBranch } from './use-revision-branch.js';
import { describeSource, isCompleteSource, revisionIdOf, sourceSyntaxProblem, type RestoreSource } from './source.js';

/** Why a source cannot be read: a title naming it, and the server's error or an explanation. */
export interface SourceProblem {
  readonly title: string;
  readonly error: unknown;
}

/**
 * The branch a source is read on, or the problem that names why it cannot be read. A revision or
 * checkpoint may sit on another branch, and state is read per branch, so the branch is looked up
 * (the revision's own, from a one-change page of it, or the checkpoint's). A branch or checkpoint
 * missing from the namespace's lists is a problem here, since the store would read a missing branch
 * as empty. `branch` is undefined while it is looked up.
 */
export function useSourceBranch(scope: StoreScope, source: RestoreSource | undefined) {
  const { namespace } = scope;
  const complete = source !== undefined && isCompleteSource(source);
  const revisionId = complete && source.kind === 'revision' ? revisionIdOf(source.revision) : undefined;
  const revision = useRevisionBranch(namespace, revisionId);
  const checkpoints = useCheckpoints(namespace);
  const branches = useBranches(scope);

  let branch: string | undefined;
  let problem: SourceProblem | undefined;
  const syntax = source && sourceSyntaxProblem(source);
  if (syntax) problem = { title: syntax.title, error: new Error(syntax.detail) };
  else if (complete && source.kind === 'branch') {
    if (branches.error) problem = { title: 'the branches could not be listed', error: branches.error };
    else if (branches.data && !branches.data.branches.some((entry) => entry.name === source.branch))
      problem = missing('branch', source.branch, namespace);
    else if (branches.data) branch = source.branch;
  } else if (complete && source.kind === 'checkpoint') {
    const found = checkpoints.data?.checkpoints.find((entry) => entry.name === source.checkpoint);
    if (checkpoints.error) problem = { title: 'the checkpoints could not be listed', error: checkpoints.error };
    else if (checkpoints.data && !found) problem = missing('checkpoint', source.checkpoint, namespace);
    else branch = found?.branch;
  } else if (complete && source.kind === 'revision') {
    if (revision.error) problem = { title: `revision #${revisionId} could not be loaded`, error: revision.error };
    else branch = revision.data?.branch;
  }
  return { branch, problem, complete, revisionId };
}

/**
 * The documents of a source, or the problem that names why it cannot be read (see
 * {@link useSourceBranch}). `data` is only ever the chosen source's own documents (never the last
 * source's, kept by the query while this one loads); `loading` is true while a source that names
 * something has neither those documents nor a problem yet.
 */
export function useSourceState(scope: StoreScope, source: RestoreSource | undefined) {
  const { namespace } = scope;
  const { branch, complete, revisionId, ...found } = useSourceBranch(scope, source);
  let problem = found.problem;

  const at =
    source?.kind === 'revision'
      ? { revision: revisionId }
      : source?.kind === 'checkpoint'
        ? { checkpoint: source.checkpoint }
        : {};
  const readable = branch !== undefined && problem === undefined;
  const state = useStoreState({ namespace, branch: branch ?? '' }, at, readable);
  if (!problem && readable && state.error && source)
    problem = { title: `${describeSource(source)} could not be loaded`, error: state.error };
  // While another revision of the same branch loads, the query keeps showing the last one's documents:
  // never to be compared or confirmed as if they were the chosen source's.
  const data = readable && !problem && !state.isPlaceholderData ? state.data : undefined;
  return { data, problem, branch, loading: complete && !problem && data === undefined };
}

function missing(what: 'branch' | 'checkpoint', name: string, namespace: string): SourceProblem {
  return {
    title: `there is no ${what} “${name}”`,
    error: new Error(`Namespace ${namespace} has no ${what} of that name: pick one from the list.`),
  };
}
