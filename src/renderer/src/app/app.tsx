import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { ApiProvider } from '../api/api-context.js';
import { ApiError, createApiClient, type Service } from '../api/http.js';
import { ErrorMessage, Loading } from '../components/feedback.js';
import { Toaster } from '../components/toast.js';
import {
  browserConnection,
  clearCredentials,
  desktopConnection,
  fetchBootstrap,
  loadCredentials,
  type Bootstrap,
  type Connection,
} from '../connection/connection.js';
import { SessionContext } from '../connection/connection-context.js';
import { LoginScreen } from '../connection/login-screen.js';
import { SSO_RETURN_PATH } from '../connection/sso.js';
import { SsoResultScreen, takeSsoReturn, type SsoReturn } from '../connection/sso-result-screen.js';
import { assertNever } from '../../../shared/assert-never.js';
import { Shell } from './shell.js';

type Boot =
  | { readonly phase: 'loading' }
  | { readonly phase: 'failed'; readonly error: unknown }
  | { readonly phase: 'login'; readonly bootstrap: Bootstrap; readonly notice?: string }
  | { readonly phase: 'sso'; readonly bootstrap: Bootstrap; readonly result: SsoReturn }
  | { readonly phase: 'ready'; readonly connection: Connection };

/** Finds the connection: the desktop bridge, or saved browser credentials, or the login screen. */
async function boot(): Promise<Boot> {
  const desktop = await desktopConnection();
  if (desktop) return { phase: 'ready', connection: desktop };
  const bootstrap = await fetchBootstrap();
  // The end of a sign-in with a provider: its key is shown whatever credentials this browser holds.
  if (window.location.pathname === `${import.meta.env.BASE_URL}${SSO_RETURN_PATH}`)
    return { phase: 'sso', bootstrap, result: takeSsoReturn() };
  const credentials = loadCredentials();
  return credentials
    ? { phase: 'ready', connection: browserConnection(bootstrap, credentials) }
    : { phase: 'login', bootstrap };
}

/** What the user is told when a credential stops working mid-session. */
export function credentialLostMessage(service: Service, error: ApiError): string {
  const what =
    service === 'gateway'
      ? 'The gateway no longer accepts the master key'
      : 'The store no longer accepts the store token';
  return `${what} (${error.message}). It may have been changed or revoked, or the server restarted with new credentials.`;
}

function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 5_000,
        refetchOnWindowFocus: true,
        // A 4xx will not change on retry; a dropped connection might. A read that timed out already
        // waited 30 s: asked twice more on its own, its error would show only after a minute and a
        // half; the screen's Retry asks again.
        retry: (failures, error) =>
          failures < 2 &&
          !(error instanceof ApiError && (error.type === 'timeout' || (error.status >= 400 && error.status < 500))),
      },
    },
  });
}

/** The root: boots the connection, then renders the shell with an API client for it. */
export function App() {
  const [state, setState] = useState<Boot>({ phase: 'loading' });
  useEffect(() => {
    boot().then(setState, (error: unknown) => setState({ phase: 'failed', error }));
  }, []);

  const credentialLost = useCallback((notice: string) => {
    // The saved credentials are the ones that failed: signing in again must ask for new ones.
    clearCredentials();
    setState((current) => {
      if (current.phase !== 'ready') return current;
      const { gatewayUrl, storeUrl, version } = current.connection;
      return { phase: 'login', bootstrap: { gatewayUrl, storeUrl, version }, notice };
    });
  }, []);

  switch (state.phase) {
    case 'loading':
      return (
        <div className="boot">
          <Loading label="Connecting…" />
        </div>
      );
    case 'failed':
      return (
        <div className="boot">
          <ErrorMessage title="Gatehouse could not start the UI" error={state.error} />
        </div>
      );
    case 'login':
      return (
        <LoginScreen
          bootstrap={state.bootstrap}
          notice={state.notice}
          onSignedIn={(connection) => setState({ phase: 'ready', connection })}
        />
      );
    case 'sso':
      return (
        <SsoResultScreen
          bootstrap={state.bootstrap}
          result={state.result}
          onBack={() => {
            window.history.replaceState(window.history.state, '', import.meta.env.BASE_URL);
            setState({ phase: 'loading' });
            boot().then(setState, (error: unknown) => setState({ phase: 'failed', error }));
          }}
        />
      );
    case 'ready':
      return (
        <SignedIn
          connection={state.connection}
          onSignOut={() => {
            clearCredentials();
            setState({ phase: 'loading' });
            boot().then(setState, (error: unknown) => setState({ phase: 'failed', error }));
          }}
          onCredentialLost={credentialLost}
        />
      );
    default:
      return assertNever(state);
  }
}

/**
 * The signed-in app. A 401 from either service means a credential stopped working: a browser goes
 * back to the login screen with the reason; the desktop app, whose credentials come from the preload
 * bridge and cannot be typed in, shows the reason above every screen.
 */
function SignedIn({
  connection,
  onSignOut,
  onCredentialLost,
}: {
  readonly connection: Connection;
  readonly onSignOut: () => void;
  readonly onCredentialLost: (notice: string) => void;
}) {
  const [lost, setLost] = useState<string>();
  const onUnauthorized = useCallback(
    (service: Service, error: ApiError) => {
      const notice = credentialLostMessage(service, error);
      if (connection.mode === 'browser') onCredentialLost(notice);
      else setLost((current) => current ?? notice);
    },
    [connection.mode, onCredentialLost],
  );
  const client = useMemo(() => createApiClient(connection, { onUnauthorized }), [connection, onUnauthorized]);
  const queryClient = useMemo(createQueryClient, [connection]);
  const session = useMemo(
    () => ({ connection, signOut: connection.mode === 'browser' ? onSignOut : undefined }),
    [connection, onSignOut],
  );
  return (
    <SessionContext.Provider value={session}>
      <ApiProvider client={client}>
        <QueryClientProvider client={queryClient}>
          {lost && (
            <div className="session-alert" data-testid="credential-lost">
              <ErrorMessage
                title="Gatehouse lost access to a service"
                error={`${lost} Restart Gatehouse to reconnect.`}
              />
            </div>
          )}
          <Shell />
          <Toaster />
        </QueryClientProvider>
      </ApiProvider>
    </SessionContext.Provider>
  );
}
