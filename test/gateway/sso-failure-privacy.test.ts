import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSsoHarness, type SsoHarness } from './support/sso-harness.js';

/** A loopback port nothing listens on: the walk stops before it, as a program's would receive it. */
const PROGRAM = 'http://127.0.0.1:9/callback';

/**
 * Why a sign-in failed reaches whoever holds its `error_ref` (the address bar, the history) and, for a
 * loopback `return_to`, the program on that port, before the user allowed it anything: neither may
 * learn the account's e-mail address or where the provider lives inside the network.
 */
describe("a failed sign-in's reason leaves out the account and the provider's address", () => {
  let h: SsoHarness;
  beforeAll(async () => {
    h = await startSsoHarness();
  });
  afterAll(async () => h?.close());

  it('answers GET /sso/failures/{ref} without the e-mail address, keeping what to do', async () => {
    const walk = await h.walk('carol');
    expect(walk.returned?.searchParams.get('error')).toBe('permission_error');
    expect(walk.failure).toBe(
      'this account matches no claim mapping of Test IdP, and the provider has no default_grant',
    );
  });

  it('sends a program on a loopback port no e-mail address in error_description', async () => {
    const walk = await h.walk('carol', { returnTo: PROGRAM });
    expect(walk.returned?.origin).toBe('http://127.0.0.1:9');
    expect(walk.returned?.searchParams.get('error')).toBe('permission_error');
    const description = walk.returned?.searchParams.get('error_description') ?? '';
    expect(description).toContain('matches no claim mapping of Test IdP');
    expect(description).not.toContain('carol@example.com');
  });
});

describe("a failed sign-in's reason with user ids that are no e-mail addresses", () => {
  let h: SsoHarness;
  beforeAll(async () => {
    // The provider's subject as the user id: nothing in it looks like an address to strip.
    h = await startSsoHarness({ user_claim: 'sub' });
  });
  afterAll(async () => h?.close());

  it('names no user id, on the failure reference or to a loopback program', async () => {
    const walk = await h.walk('carol');
    expect(walk.failure).toBe(
      'this account matches no claim mapping of Test IdP, and the provider has no default_grant',
    );
    const program = await h.walk('carol', { returnTo: PROGRAM });
    const description = program.returned?.searchParams.get('error_description') ?? '';
    expect(description).toContain('matches no claim mapping of Test IdP');
    expect(description).not.toMatch(/\bcarol\b/);
  });
});

describe("a failed sign-in's reason when the provider cannot be reached", () => {
  // A port of this suite's range that nothing listens on.
  const closed = 'http://127.0.0.1:21651';
  let h: SsoHarness;
  beforeAll(async () => {
    h = await startSsoHarness({ issuer: closed });
  });
  afterAll(async () => h?.close());

  it("names the provider by its display name, not its address, in the UI's reason and a program's", async () => {
    const ui = await h.walk('alice');
    expect(ui.returned?.searchParams.get('error')).toBe('upstream_error');
    expect(ui.failure).toContain('discovery of Test IdP failed');
    expect(ui.failure).toContain('ECONNREFUSED');
    expect(ui.failure).not.toContain('21651');
    const program = await h.walk('alice', { returnTo: PROGRAM });
    const description = program.returned?.searchParams.get('error_description') ?? '';
    expect(description).toContain('discovery of Test IdP failed');
    expect(description).not.toContain('21651');
  });
});
