import { createContext, useContext } from 'react';
import type { Connection } from './connection.js';

/** The signed-in connection and the way out of it. */
export interface Session {
  readonly connection: Connection;
  /** Browser only: forgets the credentials and returns to the login screen. */
  readonly signOut?: () => void;
}

/** Provides the {@link Session} to the shell. */
export const SessionContext = createContext<Session | undefined>(undefined);

/** The current session. */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionContext');
  return session;
}
