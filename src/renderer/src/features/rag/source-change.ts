import type { RagCollection, RagSource } from '../../../../shared/rag-api.js';
import { plural } from '../../lib/format.js';
import { sameSource } from './collection-form.js';

const named = (source: RagSource): string => `${source.namespace}@${source.branch}`;

/** What a sync to a new source does to the documents the collection holds, as the gateway's follower does it. */
function madeEqualTo(next: RagSource, held: string): string {
  return (
    `Once saved, a sync makes the collection equal to ${named(next)}: of ${held}, those it does not hold under the ` +
    'same key are removed, those it holds with other content are indexed again from it, and identical ones keep ' +
    'their chunks. Until that sync is done, requests may still retrieve the documents as they are now. A namespace ' +
    'or branch not written yet leaves the collection empty until it is.'
  );
}

/**
 * What saving a new store source (or none) does to the collection's documents, in words; undefined
 * when the source stays as it is. It follows `RagIndex.update` and the store follower: a new source
 * forgets the indexed revision and syncs, no source keeps what was indexed and syncs no more.
 */
export function describeSourceChange(collection: RagCollection, next: RagSource | null): string | undefined {
  const current = collection.source;
  if (sameSource(current, next)) return undefined;
  const documents = plural(collection.documents, 'document');
  if (next === null) {
    return (
      `Stops following ${named(current!)}. The collection keeps its ${documents} and ` +
      `${plural(collection.chunks, 'chunk')} as indexed at revision ${collection.source_revision}; writes to the ` +
      'store no longer change them, and documents can be added here instead.'
    );
  }
  if (current === null) {
    const held = collection.documents === 0 ? 'its documents (none yet)' : `its ${documents} added here`;
    return `Follows ${named(next)}, re-indexed on every revision written there; documents can no longer be added here. ${madeEqualTo(next, held)}`;
  }
  return `Stops following ${named(current)} and follows ${named(next)} instead. ${madeEqualTo(next, `its ${documents} from ${named(current)}`)}`;
}
