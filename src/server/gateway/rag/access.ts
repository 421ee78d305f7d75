import type { ApiKeyRow } from '../keys/keys.repository.js';
import { hasScope } from '../keys/scopes.js';
import type { CollectionRow } from './rag-collections.repository.js';

/** What the access check needs of a key. */
export type RagCaller = Pick<ApiKeyRow, 'id' | 'scopes' | 'ownerUser' | 'team'>;

/**
 * True when the key may read the collection: it holds `rag:<name>` (or `rag:*`, `*`) AND, unless the
 * collection's access lists are all empty, its id, owner user or team is listed. Both must hold, so
 * neither a broad scope nor a team membership alone opens a collection that names its readers.
 */
export function mayRead(caller: RagCaller, collection: CollectionRow): boolean {
  if (!hasScope(caller.scopes, `rag:${collection.name}`)) return false;
  const { keys, users, teams } = collection.access;
  if (keys.length === 0 && users.length === 0 && teams.length === 0) return true;
  if (keys.includes(caller.id)) return true;
  if (caller.ownerUser !== null && users.includes(caller.ownerUser)) return true;
  return caller.team !== null && teams.includes(caller.team);
}
