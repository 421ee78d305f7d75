import { describe, expect, it } from 'vitest';
import { GC_KEEP_MAX, gcRequestSchema, type Checkpoint } from '../../src/shared/store-api.js';
import { branchNameProblem } from '../../src/renderer/src/features/store/actions/branch-name.js';
import { parseKeep } from '../../src/renderer/src/features/store/gc-keep.js';
import { checkpointProblem, lookUpCheckpoint } from '../../src/renderer/src/features/store/checkpoint-lookup.js';

describe('a checkpoint named in the address', () => {
  const listed: Checkpoint[] = [
    { name: 'v1', revision_id: 3, branch: 'canary', description: '', created_at: '2026-01-01T00:00:00.000Z' },
  ];
  it('is found with its branch, missing, or waiting for the list', () => {
    expect(lookUpCheckpoint('v1', listed)).toEqual({ status: 'found', checkpoint: listed[0] });
    expect(lookUpCheckpoint('nope', listed)).toEqual({ status: 'missing', name: 'nope' });
    expect(lookUpCheckpoint('v1', undefined)).toEqual({ status: 'loading' });
  });

  it('names a missing one, never falling back to the head', () => {
    expect(checkpointProblem({ status: 'missing', name: 'nope' }, 'team/app')?.title).toBe(
      'No checkpoint “nope” in team/app',
    );
    expect(checkpointProblem({ status: 'found', checkpoint: listed[0]! }, 'team/app')).toBeUndefined();
  });
});

describe('a new branch name as typed', () => {
  const existing = [{ name: 'main' }, { name: 'canary' }];
  it('is refused when another branch has it, naming the field and the clash', () => {
    expect(branchNameProblem('canary', 'team/app', existing)).toBe(
      'Branch name “canary” is taken: team/app already has a branch of that name.',
    );
    expect(branchNameProblem('canary2', 'team/app', existing)).toBeUndefined();
    expect(branchNameProblem('canary', 'team/app', undefined)).toBeUndefined();
    expect(branchNameProblem('', 'team/app', existing)).toBeUndefined();
  });

  it('is refused when the store could not take it', () => {
    expect(branchNameProblem('a b', 'ns', existing)).toBe(
      'Branch name may use letters, digits, ".", "_", "/" and "-" only.',
    );
    expect(branchNameProblem('x'.repeat(257), 'ns', existing)).toBe('Branch name is too long: at most 256 characters.');
  });
});

describe('gc keep as typed', () => {
  it('reads whole numbers of 1 or more, spaces around them ignored', () => {
    expect(parseKeep('10')).toEqual({ keep: 10 });
    expect(parseKeep(' 5 ')).toEqual({ keep: 5 });
    expect(parseKeep(String(GC_KEEP_MAX))).toEqual({ keep: GC_KEEP_MAX });
  });

  it('says what is wrong, naming the field', () => {
    const problem = (text: string): string | undefined => {
      const parsed = parseKeep(text);
      return 'problem' in parsed ? parsed.problem : undefined;
    };
    expect(problem('  ')).toBe('Revisions to keep per branch is empty: enter how many to keep, like 10.');
    for (const text of ['5x', '1.5', '1e3', '0x10', '- 3'])
      expect(problem(text)).toBe('Revisions to keep per branch must be a whole number, like 10.');
    for (const text of ['0', '-3', ' -0 '])
      expect(problem(text)).toBe('Revisions to keep per branch must be at least 1.');
    for (const text of ['9007199254740992', '99999999999999999999'])
      expect(problem(text)).toBe(
        `Revisions to keep per branch is too large: the store accepts at most ${GC_KEEP_MAX.toLocaleString()}.`,
      );
  });

  it('bounds keep where the store does', () => {
    expect(gcRequestSchema.safeParse({ keep: GC_KEEP_MAX }).success).toBe(true);
    expect(gcRequestSchema.safeParse({ keep: GC_KEEP_MAX + 1 }).success).toBe(false);
  });
});
