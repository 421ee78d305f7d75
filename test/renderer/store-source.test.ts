import { describe, expect, it } from 'vitest';
import {
  decodeSource,
  encodeSource,
  isCompleteSource,
  revisionIdOf,
  sourceSyntaxProblem,
  type RestoreSource,
} from '../../src/renderer/src/features/store/actions/source.js';

describe('compare sources in the URL', () => {
  it('reads revisions, checkpoints and branch heads', () => {
    expect(decodeSource('12', 'main')).toEqual({ kind: 'revision', revision: '12' });
    expect(decodeSource('cp:release:2024', 'main')).toEqual({ kind: 'checkpoint', checkpoint: 'release:2024' });
    expect(decodeSource('branch:canary', 'main')).toEqual({ kind: 'branch', branch: 'canary' });
    expect(decodeSource(null, 'main')).toEqual({ kind: 'branch', branch: 'main' });
    expect(decodeSource('', 'dev')).toEqual({ kind: 'branch', branch: 'dev' });
  });

  it('round-trips every source, an empty or half-typed revision included', () => {
    const sources: RestoreSource[] = [
      { kind: 'revision', revision: '' },
      { kind: 'revision', revision: '7' },
      { kind: 'revision', revision: '7x' },
      { kind: 'revision', revision: 'cp:x' },
      { kind: 'checkpoint', checkpoint: '' },
      { kind: 'checkpoint', checkpoint: 'v1' },
      { kind: 'branch', branch: 'feature/a' },
    ];
    for (const source of sources) expect(decodeSource(encodeSource(source), 'main')).toEqual(source);
    expect(encodeSource({ kind: 'revision', revision: '' })).toBe('rev:');
    expect(encodeSource({ kind: 'revision', revision: '7' })).toBe('7');
  });

  it('names a value that is no revision id, and never guesses one', () => {
    for (const text of ['abc', '0', '-3', '1.5', '1e3', ' 4', '99999999999999999999']) {
      expect(revisionIdOf(text)).toBeUndefined();
      const source = decodeSource(text, 'main');
      expect(isCompleteSource(source)).toBe(false);
      expect(sourceSyntaxProblem(source)?.title).toBe(`“${text}” is not a revision id`);
    }
    expect(revisionIdOf('42')).toBe(42);
    expect(sourceSyntaxProblem({ kind: 'revision', revision: '' })).toBeUndefined();
    expect(isCompleteSource({ kind: 'revision', revision: '' })).toBe(false);
  });
});
