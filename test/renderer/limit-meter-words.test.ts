import { describe, expect, it } from 'vitest';
import { limitMeterView } from '../../src/renderer/src/lib/limit-status.js';

describe('limit meter words', () => {
  it('says an unused bucket has all of its limit available, not a bare "Full"', () => {
    const unused = limitMeterView({
      limit_type: 'tokens',
      subject: 'key',
      limit: 10_000,
      used: 0,
      remaining: 10_000,
      reset_ms: 0,
    });
    expect(unused.reset).toBe('None used: all 10K available');
    expect(unused.level).toBe('ok');
  });

  it('says when a used bucket is all available again', () => {
    const used = limitMeterView({
      limit_type: 'requests',
      subject: 'team:research',
      limit: 100,
      used: 100,
      remaining: 0,
      reset_ms: 40_000,
    });
    expect(used).toMatchObject({ level: 'full', reset: 'All 100 available again in 40 s' });
    expect(used.reset).not.toMatch(/^Full/);
  });
});
