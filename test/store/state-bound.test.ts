import { afterEach, describe, expect, it } from 'vitest';
import { docs, openTempEngine, type TempEngine } from './helpers.js';

// In-process readers (RAG collections) read whole states without the bound of an answer, and the
// states they read are cached; a client's read of the same revision is still refused past the bound.

describe('the whole-state bound and the state cache', () => {
  let temp: TempEngine | undefined;
  afterEach(() => temp?.close());

  it('refuses a state an unbounded reader cached', () => {
    temp = openTempEngine({ limits: { response_bytes: 100 } });
    const { engine } = temp;
    engine.applyDocuments({ namespace: 'n' }, docs({ a: 'x'.repeat(80), b: 'y'.repeat(80) }));
    expect(Object.keys(engine.state({ namespace: 'n' }).objects)).toEqual(['a', 'b']);
    expect(() => engine.stateJson({ namespace: 'n' })).toThrow(/is 162 bytes in 2 documents/);
  });
});
