import { compareBytewise } from './bytewise.js';
import { tooLargeError } from './errors.js';
import { sourceAt } from './reconstruct.js';
import { lookupScope, selectInBranch, type EngineContext, type Scope } from './selectors.js';
import type { Selector, StateJson } from './state-reads.js';

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
  const target = selectInBranch(ctx.repo, lookupScope(ctx.repo, scope), selector);
  const { revision, branch } = target;
  if (!branch || revision === 0) return { revision, objectsJson: '{}' };
  const source = sourceAt(ctx.repo, branch, revision);
  // At the head each document is one indexed lookup; elsewhere the state is rebuilt in id space once.
  const older = source.kind === 'head' ? undefined : ctx.repo.stateMap(source);
  const pairs: [string, number][] = [];
  let bytes = 0;
  for (const key of [...new Set(keys)].sort(compareBytewise)) {
    const keyId = ctx.repo.keyId(key);
    const blob = keyId === undefined ? undefined : older ? older.get(keyId) : ctx.repo.headBlob(branch.id, keyId);
    if (blob === undefined) continue;
    pairs.push([key, blob]);
    bytes += Buffer.byteLength(key, 'utf8') + ctx.repo.contentBytes(blob);
  }
  if (bytes > maxBytes)
    throw tooLargeError(
      `the ${pairs.length} documents named by key at revision ${revision} of branch "${target.branchName}" of ` +
        `namespace "${scope.namespace}" are ${bytes} bytes; an answer is at most ${maxBytes} bytes ` +
        '(store.limits.response_bytes): name fewer keys in each request',
    );
  return { revision, objectsJson: ctx.repo.contentsJson(pairs) };
}
