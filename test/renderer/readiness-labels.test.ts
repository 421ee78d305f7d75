import { describe, expect, it } from 'vitest';
import { readinessCheckLabel, readinessStateLabel } from '../../src/renderer/src/lib/readiness-labels.js';

describe('readiness labels', () => {
  it('names the checks both services report in words', () => {
    expect(readinessCheckLabel('database')).toBe('Database');
    expect(readinessCheckLabel('rag_index')).toBe('RAG index');
  });

  it('names the states in words', () => {
    expect(readinessStateLabel('ok')).toBe('Ready');
    expect(readinessStateLabel('unavailable')).toBe('Unavailable');
  });

  it('turns an identifier it has no label for into words rather than showing it raw', () => {
    expect(readinessCheckLabel('search_index')).toBe('Search index');
    expect(readinessCheckLabel('upstreamPool')).toBe('Upstream pool');
    expect(readinessStateLabel('DEGRADED')).toBe('Degraded');
  });
});
