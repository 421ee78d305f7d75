import type { RagRepository } from '../../../src/server/gateway/rag/rag.repository.js';

/** Inserts an empty collection nobody is granted, straight into the repository: set-up for scale tests. */
export function insertBareCollection(repository: RagRepository, name: string): void {
  repository.insertCollection({
    name,
    description: '',
    access: { keys: [], users: [], teams: [] },
    sourceNamespace: null,
    sourceBranch: null,
    createdAt: 1,
    updatedAt: 1,
  });
}
