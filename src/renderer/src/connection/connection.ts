import { z } from 'zod';

/** Where the services listen and the credentials the UI uses for them. */
export interface Connection {
  readonly gatewayUrl: string;
  readonly storeUrl: string;
  readonly masterKey: string;
  /** Null when the store runs without authentication. */
  readonly storeToken: string | null;
  readonly version: string;
  /** Desktop: details come from the preload bridge. Browser: from the login screen. */
  readonly mode: 'desktop' | 'browser';
}

/** What the gateway tells a browser before login (addresses, never credentials). */
export type Bootstrap = z.infer<typeof bootstrapSchema>;
const bootstrapSchema = z.object({ gatewayUrl: z.string(), storeUrl: z.string(), version: z.string() });

/** The credentials a browser user signs in with. */
export interface Credentials {
  readonly masterKey: string;
  readonly storeToken: string | null;
}

const credentialsSchema = z.object({ masterKey: z.string().min(1), storeToken: z.string().min(1).nullable() });
const STORAGE_KEY = 'gatehouse.credentials';

/** Reads `/ui/bootstrap.json` from the gateway that served this page. */
export async function fetchBootstrap(): Promise<Bootstrap> {
  const response = await fetch(`${import.meta.env.BASE_URL}bootstrap.json`, { cache: 'no-store' });
  if (!response.ok) throw new Error(`the gateway answered ${response.status} for bootstrap.json`);
  return bootstrapSchema.parse(await response.json());
}

/** The desktop app's connection, when running inside it. */
export async function desktopConnection(): Promise<Connection | undefined> {
  const bridge = window.gatehouse;
  if (!bridge) return undefined;
  return { ...(await bridge.getConnection()), mode: 'desktop' };
}

/** Credentials saved by a previous sign-in: this tab's first, then "remember me" ones. */
export function loadCredentials(): Credentials | undefined {
  for (const storage of [sessionStorage, localStorage]) {
    const raw = storage.getItem(STORAGE_KEY);
    if (!raw) continue;
    try {
      return credentialsSchema.parse(JSON.parse(raw));
    } catch {
      storage.removeItem(STORAGE_KEY);
    }
  }
  return undefined;
}

/** Keeps credentials for this tab, or on this computer when `remember` is set. */
export function saveCredentials(credentials: Credentials, remember: boolean): void {
  clearCredentials();
  (remember ? localStorage : sessionStorage).setItem(STORAGE_KEY, JSON.stringify(credentials));
}

/** Forgets saved credentials (sign out). */
export function clearCredentials(): void {
  sessionStorage.removeItem(STORAGE_KEY);
  localStorage.removeItem(STORAGE_KEY);
}

/** A browser connection from the bootstrap and the user's credentials. */
export function browserConnection(bootstrap: Bootstrap, credentials: Credentials): Connection {
  return { ...bootstrap, ...credentials, mode: 'browser' };
}
