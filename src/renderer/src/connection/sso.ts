import {
  ssoFailureSchema,
  ssoIssuedKeySchema,
  ssoLogoutAllResultSchema,
  ssoLogoutResultSchema,
  ssoProviderListSchema,
  type SsoIssuedKey,
  type SsoLogoutAllResult,
  type SsoLogoutResult,
  type SsoProviderInfo,
} from '../../../shared/sso-api.js';
import { base64url, sha256 } from '../lib/sha256.js';

/** The page the gateway sends the browser back to after a sign-in with a provider. */
export const SSO_RETURN_PATH = 'sso/done';
const VERIFIER_KEY = 'gatehouse.sso.verifier';

/**
 * The gateway as this page reaches it: the gateway serves the page, and under whatever name the
 * browser used (localhost for a gateway on 127.0.0.1). Its printed address would be another origin,
 * which the page's content security policy does not let it call, and whose sessionStorage (where
 * the verifier waits) is not this one's.
 */
function gateway(): string {
  return window.location.origin;
}

/** The gateway's single sign-on providers (none when it has none, or is too old to say). */
export async function fetchSsoProviders(): Promise<SsoProviderInfo[]> {
  try {
    const response = await fetch(`${gateway()}/sso/providers`, { cache: 'no-store' });
    if (!response.ok) return [];
    return ssoProviderListSchema.parse(await response.json()).data;
  } catch {
    return [];
  }
}

/**
 * Starts a sign-in with `provider`: a fresh verifier stays in this tab (sessionStorage), its S256
 * challenge goes with the browser, so only this tab can redeem the key the sign-in ends with.
 */
export function signInWithProvider(provider: string): void {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  sessionStorage.setItem(VERIFIER_KEY, verifier);
  const challenge = base64url(sha256(new TextEncoder().encode(verifier)));
  const returnTo = `${import.meta.env.BASE_URL}${SSO_RETURN_PATH}`;
  const query = new URLSearchParams({ provider, return_to: returnTo, challenge });
  window.location.assign(`${gateway()}/sso/login?${query}`);
}

/** An error answer's message, or the status. */
async function failure(response: Response): Promise<Error> {
  try {
    const body = (await response.json()) as { error?: { message?: string } };
    return new Error(body.error?.message ?? `the gateway answered ${response.status}`);
  } catch {
    return new Error(`the gateway answered ${response.status}`);
  }
}

const redemptions = new Map<string, Promise<SsoIssuedKey>>();

/** Redeems the hand-off once (a re-render asks again and gets the same answer); the verifier is then forgotten. */
export function redeemHandoff(handoff: string): Promise<SsoIssuedKey> {
  let pending = redemptions.get(handoff);
  if (!pending) {
    pending = (async () => {
      const verifier = sessionStorage.getItem(VERIFIER_KEY);
      sessionStorage.removeItem(VERIFIER_KEY);
      if (!verifier) throw new Error('this tab did not start the sign-in (or it was already finished); sign in again');
      const response = await fetch(`${gateway()}/sso/redeem`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ handoff, verifier }),
      });
      if (response.status !== 201) throw await failure(response);
      return ssoIssuedKeySchema.parse(await response.json());
    })();
    redemptions.set(handoff, pending);
  }
  return pending;
}

/**
 * Signs out: the key is revoked at once (with `everywhere`, every key of the account at its provider);
 * the answer may carry the provider's logout URL.
 */
export async function signOutKey(key: string, everywhere = false): Promise<SsoLogoutAllResult | SsoLogoutResult> {
  const response = await fetch(`${gateway()}/sso/logout${everywhere ? '?all=true' : ''}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
  });
  if (!response.ok) throw await failure(response);
  const body: unknown = await response.json();
  return everywhere ? ssoLogoutAllResultSchema.parse(body) : ssoLogoutResultSchema.parse(body);
}

/** Why a sign-in failed, in the gateway's words, from the reference its redirect carried; undefined when it has none. */
export async function fetchSsoFailure(ref: string): Promise<string | undefined> {
  try {
    const response = await fetch(`${gateway()}/sso/failures/${encodeURIComponent(ref)}`, { cache: 'no-store' });
    if (!response.ok) return undefined;
    return ssoFailureSchema.parse(await response.json()).message;
  } catch {
    return undefined;
  }
}
