import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { SsoProviderInfo } from '../../../shared/sso-api.js';
import { AddressText } from '../components/address-text.js';
import { Button } from '../components/button.js';
import { Field, TextInput } from '../components/field.js';
import { useFocusFirstProblem } from '../components/use-focus-first-problem.js';
import { browserConnection, saveCredentials, type Bootstrap, type Connection } from './connection.js';
import { fetchSsoProviders, signInWithProvider } from './sso.js';
import { verifyConnection, type VerifyFailure } from './verify.js';

/**
 * The browser's sign-in: the gateway's master key (admin API) and the store's token. The desktop
 * app never shows it: its preload bridge hands the same details over.
 */
export function LoginScreen({
  bootstrap,
  notice,
  onSignedIn,
}: {
  readonly bootstrap: Bootstrap;
  readonly notice?: string;
  readonly onSignedIn: (connection: Connection) => void;
}) {
  const [masterKey, setMasterKey] = useState('');
  const [storeToken, setStoreToken] = useState('');
  const [remember, setRemember] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failures, setFailures] = useState<readonly VerifyFailure[]>([]);
  const failureOf = (field: VerifyFailure['field']): string | undefined =>
    failures.find((failure) => failure.field === field)?.message;
  // The busy Sign in button is disabled while the check runs, which drops focus to the page when it was
  // clicked: a refusal takes focus to the first field refused, so its message is read and it can be fixed.
  const form = useRef<HTMLFormElement>(null);
  const refused = useFocusFirstProblem(form);
  const [providers, setProviders] = useState<readonly SsoProviderInfo[]>([]);
  useEffect(() => {
    void fetchSsoProviders().then(setProviders);
  }, []);

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    setBusy(true);
    setFailures([]);
    const credentials = { masterKey: masterKey.trim(), storeToken: storeToken.trim() || null };
    const connection = browserConnection(bootstrap, credentials);
    try {
      const problems = await verifyConnection(connection);
      if (problems.length > 0) {
        setFailures(problems);
        refused();
        return;
      }
      saveCredentials(credentials, remember);
      onSignedIn(connection);
    } catch (error) {
      setFailures([{ field: 'form', message: (error as Error).message }]);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="login">
      <form ref={form} className="login-card" onSubmit={(event) => void submit(event)} aria-labelledby="login-title">
        <div className="login-brand">
          <span className="brand-mark" aria-hidden="true">
            G
          </span>
          <div>
            <h1 id="login-title" className="login-title">
              Sign in to Gatehouse
            </h1>
            <p className="login-subtitle">
              Gateway at <AddressText address={bootstrap.gatewayUrl} />, store at{' '}
              <AddressText address={bootstrap.storeUrl} />
            </p>
          </div>
        </div>
        {notice && failures.length === 0 && (
          <div className="login-notice" role="alert" data-testid="login-notice">
            <strong>Please sign in again.</strong> {notice}
          </div>
        )}
        <Field
          label="Gateway master key"
          htmlFor="master-key"
          error={failureOf('masterKey')}
          hint="PROXY_MASTER_KEY, or the master.key file in the data folder the server printed at start."
        >
          <TextInput
            id="master-key"
            name="master-key"
            type="password"
            autoComplete="off"
            required
            autoFocus
            value={masterKey}
            onChange={(event) => setMasterKey(event.target.value)}
          />
        </Field>
        <Field
          label="Store token"
          htmlFor="store-token"
          error={failureOf('storeToken')}
          hint="STORE_TOKEN, or the store token file beside the master key. Leave empty if the store runs without authentication."
        >
          <TextInput
            id="store-token"
            name="store-token"
            type="password"
            autoComplete="off"
            value={storeToken}
            onChange={(event) => setStoreToken(event.target.value)}
          />
        </Field>
        <label className="checkbox">
          <input type="checkbox" checked={remember} onChange={(event) => setRemember(event.target.checked)} />
          <span>Remember on this computer</span>
        </label>
        {failures
          .filter((failure) => failure.field === 'form')
          .map((failure) => (
            <div key={failure.message} className="field-error" role="alert">
              {failure.message}
            </div>
          ))}
        <Button type="submit" variant="primary" busy={busy} className="login-submit">
          Sign in
        </Button>
        {providers.length > 0 && (
          <>
            <div className="login-divider">or get an API key with your organisation&apos;s account</div>
            {providers.map((provider) => (
              <Button
                key={provider.id}
                type="button"
                variant="secondary"
                className="login-submit"
                data-testid={`sso-${provider.id}`}
                onClick={() => signInWithProvider(provider.id)}
              >
                Sign in with {provider.name}
              </Button>
            ))}
          </>
        )}
        <p className="login-footnote">
          The credentials stay in this browser and go only to these two addresses. Gatehouse {bootstrap.version}
        </p>
      </form>
    </main>
  );
}
