import { compareBytewise } from './bytewise.js';
import { tooLargeError } from './errors.js';
import { sourceAt } from './reconstruct.js';
import { lookupScope, selectInBranch, type EngineContext, type Scope } from './selectors.js';
import type { Selector, StateJson, StateKeys } from './state-reads.js';

// Reading named documents of a state (`git show <rev>:<path>`), for a client that wants one document
// at an older revision without reading, or paging through, the whole state.

/**
 * The documents named by `keys` in the state at the selected revision, keys in byte order and once each;
 * a key the state does not hold is left out. 413 when their keys and contents pass `maxBytes` UTF-8
 * bytes, before any content is read.
 */
export function stateOfKeysJson(
  ctx: EngineContext,
  scope: Scope,
  selector: Selector,
  keys: readonly string[],
  maxBytes: number,
): StateJson {
  const { revision, branchName, named } = namedDocuments(ctx, scope, selector, keys);
  const bytes = named.reduce((sum, { key, bytes }) => sum + Buffer.byteLength(key, 'utf8') + bytes, 0);
  if (bytes > maxBytes)
    throw tooLargeError(
      `the ${named.length} documents named by key at revision ${revision} of branch "${branchName}" of ` +
        `namespace "${scope.namespace}" are ${bytes} bytes; an answer is at most ${maxBytes} bytes ` +
        '(store.limits.response_bytes): name fewer keys in each request',
    );
  return { revision, objectsJson: ctx.repo.contentsJson(named.map(({ key, blob }) => [key, blob])) };
}

/** Like {@link stateOfKeysJson}, each named document's key and UTF-8 size, no content read. */
export function stateOfKeysSizes(
  ctx: EngineContext,
  scope: Scope,
  selector: Selector,
  keys: readonly string[],
): StateKeys {
  const { revision, named } = namedDocuments(ctx, scope, selector, keys);
  return { revision, documents: named.map(({ key, bytes }) => ({ key, bytes })) };
}

/** The documents `keys` names at the selected revision, in key byte order, with their blobs and content sizes. */
function namedDocuments(ctx: EngineContext, scope: Scope, selector: Selector, keys: readonly string[]) {
  const { revision, branchName, named } = namedBlobs(ctx, scope, selector, keys);
  return { revision, branchName, named: named.map((doc) => ({ ...doc, bytes: ctx.repo.contentBytes(doc.blob) })) };
}

/**
 * The documents `keys` names at the selected revision (absent ones left out, each key once, in byte
 * order) with their content ids, without reading a content.
 */
export function namedBlobs(ctx: EngineContext, scope: Scope, selector: Selector, keys: readonly string[]) {
  const { revision, branch, branchName } = selectInBranch(ctx.repo, lookupScope(ctx.repo, scope), selector);
  const named: { key: string; blob: number }[] = [];
  if (!branch || revision === 0) return { revision, branchName, named };
  const source = sourceAt(ctx.repo, branch, revision);
  // At the head each document is one indexed lookup; elsewhere the state is rebuilt in id space once.
  const older = source.kind === 'head' ? undefined : ctx.repo.stateMap(source);
  for (const key of [...new Set(keys)].sort(compareBytewise)) {
    const keyId = ctx.repo.keyId(key);
    const blob = keyId === undefined ? undefined : older ? older.get(keyId) : ctx.repo.headBlob(branch.id, keyId);
    if (blob !== undefined) named.push({ key, blob });
  }
  return { revision, branchName, named };
}
