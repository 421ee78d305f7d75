import { describe, expect, it } from 'vitest';
import type { NamespaceSummary } from '../../src/shared/store-api.js';
import { changedNamespaces } from '../../src/renderer/src/lib/namespace-changes.js';

const summary = (name: string, change: Partial<NamespaceSummary> = {}): NamespaceSummary => ({
  name,
  branches: 1,
  revisions: 3,
  checkpoints: 0,
  head_revision: 3,
  created_at: '2026-01-01T00:00:00.000Z',
  ...change,
});

describe('the namespaces a store write changed', () => {
  it('is none when the list reads the same', () => {
    expect(changedNamespaces([summary('a'), summary('b')], [summary('a'), summary('b')])).toEqual([]);
  });

  it('names a namespace with a new revision, branch, checkpoint or pruned history', () => {
    const before = [summary('rev'), summary('branch'), summary('checkpoint'), summary('gc'), summary('same')];
    const after = [
      summary('rev', { head_revision: 4, revisions: 4 }),
      summary('branch', { branches: 2 }),
      summary('checkpoint', { checkpoints: 1 }),
      summary('gc', { revisions: 1 }),
      summary('same'),
    ];
    expect(changedNamespaces(before, after)).toEqual(['rev', 'branch', 'checkpoint', 'gc']);
  });

  it('names a namespace that appeared and one that went', () => {
    expect(changedNamespaces([summary('old')], [summary('new')])).toEqual(['new', 'old']);
  });
});
