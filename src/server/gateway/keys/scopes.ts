/** Scopes a key can hold: one per endpoint family, scraping `/metrics`, RAG collections, or everything. */
export type RequiredScope = 'chat' | 'embeddings' | 'responses' | 'metrics' | `rag:${string}`;

/** The scope a key gets when created without a list. */
export const DEFAULT_SCOPES: readonly string[] = ['chat'];

/** True when `scopes` grant `required` (`*` grants all, `rag:*` every collection). */
export function hasScope(scopes: readonly string[], required: RequiredScope): boolean {
  for (const scope of scopes) {
    if (scope === '*' || scope === required) return true;
    if (scope === 'rag:*' && required.startsWith('rag:')) return true;
  }
  return false;
}
