import { test as base, expect, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';

/** The running app, as the global setup started it. */
export interface App {
  readonly gatewayUrl: string;
  readonly storeUrl: string;
  readonly uiUrl: string;
  readonly masterKey: string;
  readonly storeToken: string;
}

function app(): App {
  const value = (name: string): string => {
    const found = process.env[name];
    if (!found) throw new Error(`${name} is not set: the global setup did not run`);
    return found;
  };
  return {
    gatewayUrl: value('GATEHOUSE_GATEWAY_URL'),
    storeUrl: value('GATEHOUSE_STORE_URL'),
    uiUrl: value('GATEHOUSE_UI_URL'),
    masterKey: value('GATEHOUSE_MASTER_KEY'),
    storeToken: value('GATEHOUSE_STORE_TOKEN'),
  };
}

/** Calls the store API with the test token; throws on a non-2xx answer. */
export async function storeCall<T = unknown>(
  path: string,
  body?: unknown,
  method = body === undefined ? 'GET' : 'POST',
): Promise<T> {
  const { storeUrl, storeToken } = app();
  const response = await fetch(new URL(path, storeUrl), {
    method,
    headers: {
      authorization: `Bearer ${storeToken}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

/** Calls the gateway's admin API with the master key; the answer as it came. */
export function gatewayAdmin(path: string, method = 'GET', body?: unknown): Promise<Response> {
  const { gatewayUrl, masterKey } = app();
  return fetch(new URL(path, gatewayUrl), {
    method,
    headers: { authorization: `Bearer ${masterKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/**
 * Adds `model` to the gateway's allowed models, for a test that needs a model of its own; resolves with
 * the list before, which the test puts back when it is done.
 */
export async function allowModel(model: string): Promise<string[]> {
  const before = ((await (await gatewayAdmin('/internal/models')).json()) as { allowed_models: string[] })
    .allowed_models;
  const saved = await gatewayAdmin('/internal/models', 'PUT', { allowed_models: [...before, model] });
  if (saved.status !== 200) throw new Error(`allowing ${model}: ${saved.status} ${await saved.text()}`);
  return before;
}

/** Saves a screenshot of the main screens as a test artefact (e2e/artifacts, not committed). */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  mkdirSync('e2e/artifacts', { recursive: true });
  await page.screenshot({ path: `e2e/artifacts/${name}.png` });
}

/** Opens `url` signed in with these credentials, put where the login screen would keep them. */
export async function openWithCredentials(
  page: Page,
  url: string,
  credentials: { readonly masterKey: string; readonly storeToken: string },
  theme: 'light' | 'dark' | '' = '',
): Promise<void> {
  await page.addInitScript(
    ([key, token, chosenTheme]) => {
      // Runs in the page; this file is type-checked without the DOM library.
      type BrowserStorage = { setItem(name: string, value: string): void };
      const { sessionStorage, localStorage } = globalThis as unknown as {
        sessionStorage: BrowserStorage;
        localStorage: BrowserStorage;
      };
      sessionStorage.setItem('gatehouse.credentials', JSON.stringify({ masterKey: key, storeToken: token }));
      if (chosenTheme) localStorage.setItem('gatehouse.theme', chosenTheme);
    },
    [credentials.masterKey, credentials.storeToken, theme] as const,
  );
  await page.goto(url);
}

/** Opens a screen of the shared app already signed in. */
export async function openSignedIn(page: Page, path = '', options: { theme?: 'light' | 'dark' } = {}): Promise<void> {
  const { masterKey, storeToken, uiUrl } = app();
  await openWithCredentials(page, new URL(path, uiUrl).toString(), { masterKey, storeToken }, options.theme ?? '');
}

/**
 * The test API: `app` (addresses and credentials), and `consoleErrors`, which fails any test whose
 * page logged an error, threw, or broke its content security policy (a screen that "works" with
 * errors in the console is broken).
 */
export const test = base.extend<{ app: App; consoleErrors: string[] }>({
  // eslint-disable-next-line no-empty-pattern
  app: async ({}, use) => use(app()),
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      // A content-security-policy violation is reported to the page, not logged: log it, to fail the test.
      await page.addInitScript({
        content: `document.addEventListener('securitypolicyviolation', (event) =>
          console.error('content security policy violation: ' + event.violatedDirective + ' (' + event.blockedURI + ')'));`,
      });
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(`${message.text()} (${message.location().url})`);
      });
      page.on('pageerror', (error) => errors.push(error.message));
      await use(errors);
      expect(errors, 'errors in the browser console').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
