import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { ApiProvider } from '../api/api-context.js';
import { ApiError, createApiClient } from '../api/http.js';
import { ErrorMessage, Loading } from '../components/feedback.js';
import { Toaster } from '../components/toast.js';
import { browserConnection, clearCredentials, desktopConnection, fetchBootstrap, loadCredentials, type Bootstrap, type Connection } from '../connection/connection.js';
import { SessionContext } from '../connection/connection-context.js';
import { LoginScreen } from '../connection/login-screen.js';
import { assertNever } from '../lib/assert-never.js';
import { Shell } from './shell.js';

type Boot =
  | { readonly phase: 'loading' }
  | { readonly phase: 'failed'; readonly error: unknown }
  | { readonly phase: 'login'; readonly bootstrap: Bootstrap }
  | { readonly phase: 'ready'; readonly connection: Connection };

/** Finds the connection: the desktop bridge, or saved browser credentials, or the login screen. */
async function boot(): Promise<Boot> {
  const desktop = await desktopConnection();
  if (desktop) return { phase: 'ready', connection: desktop };
  const bootstrap = await fetchBootstrap();
  const credentials = loadCredentials();
  return credentials ? { phase: 'ready', connection: browserConnection(bootstrap, credentials) } : { phase: 'login', bootstrap };
}

function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 5_000,
        refetchOnWindowFocus: true,
        // A 4xx will not change on retry; a dropped connection might.
        retry: (failures, error) => failures < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
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
      return <LoginScreen bootstrap={state.bootstrap} onSignedIn={(connection) => setState({ phase: 'ready', connection })} />;
    case 'ready':
      return (
        <SignedIn
          connection={state.connection}
          onSignOut={() => {
            clearCredentials();
            setState({ phase: 'loading' });
            boot().then(setState, (error: unknown) => setState({ phase: 'failed', error }));
          }}
        />
      );
    default:
      return assertNever(state);
  }
}

function SignedIn({ connection, onSignOut }: { readonly connection: Connection; readonly onSignOut: () => void }) {
  const client = useMemo(() => createApiClient(connection), [connection]);
  const queryClient = useMemo(createQueryClient, [connection]);
  const session = useMemo(() => ({ connection, signOut: connection.mode === 'browser' ? onSignOut : undefined }), [connection, onSignOut]);
  return (
    <SessionContext.Provider value={session}>
      <ApiProvider client={client}>
        <QueryClientProvider client={queryClient}>
          <Shell />
          <Toaster />
        </QueryClientProvider>
      </ApiProvider>
    </SessionContext.Provider>
  );
}
