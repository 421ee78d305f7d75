import type { Page, Request } from '@playwright/test';
import { openSignedIn, storeCall } from './fixtures.js';

/** What `/v1/apply` answers. */
export interface Written {
  readonly revision: number;
}

/** A namespace of its own for one test (`e2e/<prefix>-<name>-<time>`), so tests never see each other's history. */
export const freshNamespace = (prefix: string, name: string): string => `e2e/${prefix}-${name}-${Date.now()}`;

/** Writes documents to a branch through the store API, as one revision. */
export function apply(namespace: string, branch: string, message: string, documents: Record<string, string>) {
  return storeCall<Written>('/v1/apply', {
    scope: { namespace, branch },
    message,
    documents: Object.entries(documents).map(([key, content]) => ({ key, content })),
  });
}

/** The path of a store screen for a namespace and branch, with more query parameters in `extra` (`&rev=2`). */
export const screen = (path: string, namespace: string, branch = 'main', extra = ''): string =>
  `store/${path}?ns=${encodeURIComponent(namespace)}&branch=${encodeURIComponent(branch)}${extra}`;

/** Drops the browser's own "Failed to load resource" lines for statuses a test provokes on purpose. */
export function allowStatus(consoleErrors: string[], status: number): void {
  const expected = new RegExp(`status of ${status}\\b`);
  consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((line) => !expected.test(line)));
}

/**
 * Holds the page's readings of the namespace list (how it notices writes from elsewhere, every few
 * seconds) until the returned function is called: a test that writes behind an open dialog's back
 * then acts before the page could have noticed, as a person quicker than that would.
 */
export async function holdStoreChanges(page: Page): Promise<() => Promise<void>> {
  let release = (): void => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const namespaces = /\/v1\/namespaces(\?|$)/;
  await page.route(namespaces, async (route) => {
    await released;
    // A reading the page gave up meanwhile (a newer one replaced it) is already over.
    await route.continue().catch(() => undefined);
  });
  return async () => {
    release();
    await page.unroute(namespaces);
  };
}

/** One revision {@link applyMany} wrote. */
export interface BulkRevision {
  readonly revision: number;
  readonly message: string;
}

/**
 * Writes `count` revisions to a branch through the store API, `parallel` at a time (far quicker than
 * one after another for a long history), each changing `a.txt`; resolves with them oldest first. The
 * store orders writes as they land, so a message (`edit 7`) need not match its place in the log.
 */
export async function applyMany(
  namespace: string,
  branch: string,
  count: number,
  parallel = 16,
): Promise<BulkRevision[]> {
  const written: BulkRevision[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const message = `edit ${++next}`;
      const { revision } = await apply(namespace, branch, message, { 'a.txt': `${message}\n` });
      written.push({ revision, message });
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return written.sort((a, b) => a.revision - b.revision);
}

/** A branch's documents at its head, as the store answers `GET /v1/state`. */
export interface State {
  readonly revision: number;
  readonly objects: Record<string, string>;
}

/** The head state of a branch. */
export const stateOf = (namespace: string, branch = 'main'): Promise<State> =>
  storeCall<State>(`/v1/state?namespace=${encodeURIComponent(namespace)}&branch=${encodeURIComponent(branch)}`);

/** `main` with a.txt and b.txt, then `feature` made from its head. */
export async function mainAndFeature(namespace: string): Promise<void> {
  await apply(namespace, 'main', 'start', { 'a.txt': '1\n', 'b.txt': '1\n' });
  await storeCall('/v1/branches', { scope: { namespace, branch: 'main' }, name: 'feature' });
}

/** Opens the Merge dialog for `feature` into `main` from Branches. */
export async function openMerge(page: Page, namespace: string) {
  await openSignedIn(page, screen('branches', namespace));
  await page.getByRole('button', { name: 'Merge into main from feature', exact: true }).click();
  return page.getByTestId('merge-dialog');
}

/** The bodies of the merges the page sends that write (not its dry runs). */
export function mergesWritten(page: Page): Record<string, unknown>[] {
  const sent: Record<string, unknown>[] = [];
  page.on('request', (request: Request) => {
    if (!request.url().endsWith('/v1/merge')) return;
    const body = request.postDataJSON() as Record<string, unknown>;
    if (body.dry_run !== true) sent.push(body);
  });
  return sent;
}
