import { describe, expect, it } from 'vitest';
import { scopeAfterDelete } from '../../src/renderer/src/features/store/actions/scope-after-delete.js';

describe('the store scope after a branch is deleted', () => {
  it('stays when another branch went and some are left', () => {
    expect(scopeAfterDelete('team/app', ['feature', 'main'], 'feature', 'main')).toBeUndefined();
  });

  it('moves to main when the scope’s branch went and main is left', () => {
    expect(scopeAfterDelete('team/app', ['alpha', 'feature', 'main'], 'feature', 'feature')).toEqual({
      namespace: 'team/app',
      branch: 'main',
    });
  });

  it('moves to the first branch left when there is no main, never to the deleted one', () => {
    expect(scopeAfterDelete('team/app', ['alpha', 'beta'], 'alpha', 'alpha')).toEqual({
      namespace: 'team/app',
      branch: 'beta',
    });
    expect(scopeAfterDelete('team/app', ['alpha', 'beta', 'gamma'], 'gamma', 'gamma')).toEqual({
      namespace: 'team/app',
      branch: 'alpha',
    });
  });

  it('keeps the namespace when its last branch went, so its empty state shows rather than another namespace', () => {
    expect(scopeAfterDelete('team/app', ['solo'], 'solo', 'solo')).toEqual({ namespace: 'team/app', branch: 'main' });
    // The scope was on a branch never written: it stays there, with the namespace pinned.
    expect(scopeAfterDelete('team/app', ['solo'], 'solo', 'main')).toEqual({ namespace: 'team/app', branch: 'main' });
    expect(scopeAfterDelete('team/app', ['mian'], 'mian', 'draft')).toEqual({ namespace: 'team/app', branch: 'draft' });
  });
});
