import { useEffect, useState } from 'react';
import type { SsoIssuedKey } from '../../../shared/sso-api.js';
import { Button } from '../components/button.js';
import { CopyButton } from '../components/copy-button.js';
import { ErrorMessage, Loading } from '../components/feedback.js';
import { AlertIcon } from '../components/icons.js';
import type { Bootstrap } from './connection.js';
import { fetchSsoFailure, redeemHandoff, signOutKey } from './sso.js';
import { ssoFailureMessage } from './sso-failure-message.js';

type State =
  | { readonly phase: 'redeeming' }
  | { readonly phase: 'issued'; readonly key: SsoIssuedKey }
  | {
      readonly phase: 'signed-out';
      readonly key: SsoIssuedKey;
      readonly endSessionUrl: string | null;
      /** Keys revoked when signing out everywhere, this one included; undefined for this key alone. */
      readonly revokedKeys?: number;
    }
  | { readonly phase: 'failed'; readonly error: string; readonly detail?: string }
  | { readonly phase: 'shown-before'; readonly issued: IssuedNote }
  | { readonly phase: 'empty' };

/** What the gateway's redirect carried: a hand-off to redeem, or why the sign-in failed (by reference). */
export interface SsoReturn {
  readonly handoff?: string;
  readonly error?: string;
  readonly errorRef?: string;
}

/** The key this tab was shown, remembered (never its secret) so that a reload can say it exists. */
interface IssuedNote {
  readonly prefix: string;
  readonly user: string | null;
  readonly providerName: string;
}

const ISSUED_KEY = 'gatehouse.sso.issued';

function rememberIssued(key: SsoIssuedKey): void {
  const note: IssuedNote = { prefix: key.key_prefix, user: key.user, providerName: key.provider_name };
  sessionStorage.setItem(ISSUED_KEY, JSON.stringify(note));
}

function issuedBefore(): IssuedNote | undefined {
  try {
    const note = JSON.parse(sessionStorage.getItem(ISSUED_KEY) ?? 'null') as IssuedNote | null;
    return note !== null && typeof note.prefix === 'string' ? note : undefined;
  } catch {
    return undefined;
  }
}

function initialState(result: SsoReturn): State {
  if (result.handoff) return { phase: 'redeeming' };
  if (result.error) return { phase: 'failed', error: ssoFailureMessage(result.error) };
  const issued = issuedBefore();
  return issued ? { phase: 'shown-before', issued } : { phase: 'empty' };
}

/** A key's display prefix with one ellipsis: the gateway's already ends in one (a note from before may not). */
const shownPrefix = (prefix: string): string => `${prefix.replace(/…$/, '')}…`;

/**
 * When the key stops working, as the gateway will actually do it: a key without an expiry whose
 * session cannot be refreshed is never checked against the provider again, whatever happens to the
 * user's groups there.
 */
function expiryText(key: SsoIssuedKey): string {
  const membership = key.refreshable ? ` (earlier if you leave your groups at ${key.provider_name})` : '';
  if (key.expires_at) return `${new Date(key.expires_at).toLocaleString()}${membership}`;
  if (key.refreshable) return `when you sign out or leave your groups at ${key.provider_name}`;
  return `never expires; not re-checked against ${key.provider_name} (it works until you sign out or an admin revokes it)`;
}

let taken: SsoReturn | undefined;

/**
 * Reads the redirect's parameters, then takes them off the address bar so a reload cannot replay them.
 * Idempotent within a page load: React's development mode boots twice.
 */
export function takeSsoReturn(): SsoReturn {
  if (taken) return taken;
  const params = new URLSearchParams(window.location.search);
  // The entry's state (the router's position) is kept: only the address changes.
  window.history.replaceState(window.history.state, '', window.location.pathname);
  taken = {
    handoff: params.get('handoff') ?? undefined,
    error: params.get('error') ?? undefined,
    errorRef: params.get('error_ref') ?? undefined,
  };
  return taken;
}

/**
 * The end of a sign-in with a provider: the new API key, shown this once, with who it was issued to
 * and a way to sign out (which revokes it). An SSO sign-in gives a key, not the admin UI.
 */
export function SsoResultScreen({
  bootstrap,
  result,
  onBack,
}: {
  readonly bootstrap: Bootstrap;
  readonly result: SsoReturn;
  readonly onBack: () => void;
}) {
  const [state, setState] = useState<State>(() => initialState(result));
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!result.handoff) return;
    redeemHandoff(result.handoff).then(
      (key) => {
        rememberIssued(key);
        setState({ phase: 'issued', key });
      },
      (error: unknown) => setState({ phase: 'failed', error: (error as Error).message }),
    );
  }, [result.handoff]);
  useEffect(() => {
    if (!result.errorRef || result.handoff) return;
    let current = true;
    void fetchSsoFailure(result.errorRef).then((detail) => {
      if (current && detail !== undefined) setState((now) => (now.phase === 'failed' ? { ...now, detail } : now));
    });
    return () => {
      current = false;
    };
  }, [result.errorRef, result.handoff]);

  const signOut = async (key: SsoIssuedKey, everywhere = false): Promise<void> => {
    setBusy(true);
    try {
      const out = await signOutKey(key.key, everywhere);
      sessionStorage.removeItem(ISSUED_KEY);
      const revokedKeys = 'revoked_keys' in out ? out.revoked_keys : undefined;
      setState({ phase: 'signed-out', key, endSessionUrl: out.end_session_url, revokedKeys });
    } catch (error) {
      setState({ phase: 'failed', error: (error as Error).message });
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="login">
      <section className="login-card sso-result" aria-labelledby="sso-title" data-testid="sso-result">
        {state.phase === 'redeeming' && <Loading label="Issuing your API key…" />}
        {state.phase === 'failed' && (
          <>
            <h1 id="sso-title" className="login-title">
              Sign-in failed
            </h1>
            <ErrorMessage title="No API key was issued" error={state.error} />
            {state.detail !== undefined && (
              <p className="muted" data-testid="sso-failure-detail">
                The gateway says: {state.detail}
              </p>
            )}
          </>
        )}
        {state.phase === 'shown-before' && (
          <>
            <h1 id="sso-title" className="login-title">
              Your API key was shown once
            </h1>
            <p data-testid="sso-shown-before">
              The key <code>{shownPrefix(state.issued.prefix)}</code>
              {state.issued.user !== null && <> of {state.issued.user}</>} from {state.issued.providerName} is still
              active. Gatehouse keeps only a hash of it, so it cannot show it again.
            </p>
            <p>
              If you have the key, revoke it by signing out with it (<code>POST /sso/logout</code> with the key as the
              bearer token). If you lost it, ask an admin to revoke the key{' '}
              <code>{shownPrefix(state.issued.prefix)}</code> on the Keys page, and sign in again for a new one.
            </p>
          </>
        )}
        {state.phase === 'empty' && (
          <>
            <h1 id="sso-title" className="login-title">
              Nothing to show
            </h1>
            <p data-testid="sso-empty">
              This page shows the API key of a sign-in once, right after it. Sign in again for a new key.
            </p>
          </>
        )}
        {state.phase === 'issued' && (
          <>
            <h1 id="sso-title" className="login-title">
              Your API key
            </h1>
            <p className="login-subtitle">
              Signed in as <strong data-testid="sso-user">{state.key.user}</strong> with {state.key.provider_name}
            </p>
            <div className="notice notice-warning">
              <AlertIcon />
              <span>Copy the key now. It is shown this once: Gatehouse keeps only a hash of it.</span>
            </div>
            <div className="secret-row">
              <code className="secret" data-testid="sso-key-secret">
                {state.key.key}
              </code>
              <CopyButton text={state.key.key} what="key" size="md" variant="primary" />
            </div>
            <dl className="sso-details">
              <dt>Team</dt>
              <dd data-testid="sso-team">{state.key.team ?? '—'}</dd>
              <dt>Scopes</dt>
              <dd data-testid="sso-scopes">{state.key.scopes.join(', ')}</dd>
              <dt>Expires</dt>
              <dd data-testid="sso-expires">{expiryText(state.key)}</dd>
              <dt>Use it</dt>
              <dd>
                {/* The Anthropic SDK appends /v1/messages itself; the OpenAI SDK appends only the operation. */}
                <code data-testid="sso-openai-base-url">{`${bootstrap.gatewayUrl}/v1`}</code> as the OpenAI base URL,{' '}
                <code data-testid="sso-anthropic-base-url">{bootstrap.gatewayUrl}</code> as the Anthropic base URL
              </dd>
            </dl>
            <Button
              variant="secondary"
              className="login-submit"
              busy={busy}
              onClick={() => void signOut(state.key)}
              data-testid="sso-sign-out"
            >
              Sign out and revoke this key
            </Button>
            {/* A lost laptop's keys: every key this account holds from this provider, not just this one. */}
            <Button
              variant="ghost"
              className="login-submit"
              busy={busy}
              onClick={() => void signOut(state.key, true)}
              data-testid="sso-sign-out-everywhere"
            >
              Sign out everywhere (every key of this account from {state.key.provider_name})
            </Button>
          </>
        )}
        {state.phase === 'signed-out' && (
          <>
            <h1 id="sso-title" className="login-title">
              Signed out
            </h1>
            <p data-testid="sso-signed-out">
              {state.revokedKeys === undefined
                ? `The key ${state.key.key_prefix} is revoked.`
                : `${state.revokedKeys} ${state.revokedKeys === 1 ? 'key is' : 'keys are'} revoked: every key of this account from ${state.key.provider_name}.`}{' '}
              {state.endSessionUrl && <a href={state.endSessionUrl}>Also sign out of {state.key.provider_name}</a>}
            </p>
          </>
        )}
        <Button variant="ghost" className="login-submit" onClick={onBack} data-testid="sso-back">
          Back to sign-in
        </Button>
      </section>
    </main>
  );
}
