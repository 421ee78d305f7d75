import type { Locator, Page } from '@playwright/test';
import { expect, openSignedIn, saveScreenshot, storeCall, test } from './fixtures.js';
import { apply, freshNamespace, screen } from './store-helpers.js';

type Verb = 'read' | 'write' | 'admin';

/**
 * Answers the page's `GET /v1/token` as the store would for a token named `ci` holding `verbs` on
 * every namespace: the test server's own token holds them all.
 */
async function grant(page: Page, verbs: readonly Verb[]): Promise<void> {
  await page.route(/\/v1\/token(\?|$)/, (route) => {
    const namespace = new URL(route.request().url()).searchParams.get('namespace');
    return route.fulfill({
      json: {
        auth: true,
        name: 'ci',
        verbs,
        namespaces: ['*'],
        ...(namespace === null ? {} : { namespace: { name: namespace, verbs } }),
      },
    });
  });
}

/** A namespace with two revisions on main, a branch `feature` and a checkpoint `release`. */
async function seed(name: string): Promise<{ namespace: string; first: number }> {
  const namespace = freshNamespace('storeaccess', name);
  const { revision: first } = await apply(namespace, 'main', 'first', { 'a.txt': 'one\n' });
  await apply(namespace, 'main', 'second', { 'a.txt': 'two\n' });
  await storeCall('/v1/branches', { scope: { namespace, branch: 'main' }, name: 'feature', from_revision: first });
  await storeCall('/v1/checkpoints', { scope: { namespace, branch: 'main' }, name: 'release', description: '' });
  return { namespace, first };
}

const mayNotWrite = (namespace: string): string => `This store token (“ci”) may not write to ${namespace}`;
const mayNotAdminister = (namespace: string): string => `This store token (“ci”) may not administer ${namespace}`;

async function expectRefused(button: Locator, reason: string): Promise<void> {
  await expect(button).toBeDisabled();
  await expect(button).toHaveAccessibleDescription(reason);
}

test('a read-only token sees every store action disabled, with the reason', async ({ page }) => {
  const { namespace, first } = await seed('read');
  await grant(page, ['read']);
  const write = mayNotWrite(namespace);

  await openSignedIn(page, screen('branches', namespace));
  const table = page.getByTestId('branches-table');
  await expect(table.getByRole('row')).toHaveCount(3);
  await expectRefused(page.getByTestId('new-branch'), write);
  await expectRefused(table.getByRole('button', { name: 'Merge into main from feature' }), write);
  await expectRefused(table.getByRole('button', { name: 'Restore into main from feature' }), write);
  await expectRefused(table.getByRole('button', { name: 'Delete branch feature' }), mayNotAdminister(namespace));
  await expect(page.getByTestId('action-access-note')).toHaveText(
    `This store token (“ci”) may not write to ${namespace} or administer it. Its grants are set in store.auth.tokens.`,
  );
  await saveScreenshot(page, 'storeaccess-branches-read-only');

  await page.goto(page.url().replace('store/branches', 'store/checkpoints'));
  await expect(page.getByTestId('checkpoints-table').getByRole('row')).toHaveCount(2);
  await expectRefused(page.getByTestId('new-checkpoint'), write);
  await expectRefused(page.getByRole('button', { name: 'Delete release' }), write);
  await expect(page.getByTestId('action-access-note')).toContainText(write);

  await page.goto(page.url().replace('store/checkpoints', 'store/history') + `&rev=${first}`);
  const detail = page.getByTestId('revision-detail');
  await expect(detail).toContainText('first');
  await expectRefused(page.getByTestId('rollback-button'), write);
  await expectRefused(page.getByTestId('revert-button'), write);
  await expectRefused(detail.getByRole('button', { name: 'Branch', exact: true }), write);
  await expect(detail.getByTestId('action-access-note')).toContainText(write);
  await saveScreenshot(page, 'storeaccess-history-read-only');

  await page.goto(page.url().replace('store/history', 'store/documents'));
  await expectRefused(page.getByRole('button', { name: 'Roll back main to this' }), write);
  await saveScreenshot(page, 'storeaccess-documents-read-only');

  await page.goto(page.url().split('store/')[0] + 'store/maintenance');
  await expectRefused(page.getByTestId('gc-preview'), 'This store token (“ci”) may not administer any namespace');
  await expect(page.getByTestId('gc-panel').getByTestId('action-access-note')).toBeVisible();
  await saveScreenshot(page, 'storeaccess-maintenance-read-only');
});

test('a token with write but not admin may change documents but not delete branches or prune', async ({ page }) => {
  const { namespace } = await seed('write');
  await grant(page, ['read', 'write']);

  await openSignedIn(page, screen('branches', namespace));
  const table = page.getByTestId('branches-table');
  await expect(table.getByRole('row')).toHaveCount(3);
  await expectRefused(table.getByRole('button', { name: 'Delete branch feature' }), mayNotAdminister(namespace));
  await expect(page.getByTestId('new-branch')).toBeEnabled();
  await expect(table.getByRole('button', { name: 'Merge into main from feature' })).toBeEnabled();
  await expect(page.getByTestId('action-access-note')).toHaveText(
    `${mayNotAdminister(namespace)}. Its grants are set in store.auth.tokens.`,
  );

  await page.goto(page.url().split('store/')[0] + 'store/maintenance');
  await expectRefused(page.getByTestId('gc-preview'), 'This store token (“ci”) may not administer any namespace');
});

test('with the full grant every action is offered and nothing is noted', async ({ page }) => {
  const { namespace, first } = await seed('full');
  // The real answer, only watched: the note must not show because the grant is still being read.
  const answered = page.waitForResponse(/\/v1\/token\?namespace=/);

  await openSignedIn(page, screen('branches', namespace));
  await answered;
  const table = page.getByTestId('branches-table');
  await expect(table.getByRole('row')).toHaveCount(3);
  await expect(page.getByTestId('new-branch')).toBeEnabled();
  await expect(table.getByRole('button', { name: 'Delete branch feature' })).toBeEnabled();
  await expect(page.getByTestId('action-access-note')).toHaveCount(0);

  await page.goto(page.url().replace('store/branches', 'store/history') + `&rev=${first}`);
  await expect(page.getByTestId('revision-detail')).toContainText('first');
  await expect(page.getByTestId('rollback-button')).toBeEnabled();
  await expect(page.getByTestId('action-access-note')).toHaveCount(0);

  await page.goto(page.url().split('store/')[0] + 'store/maintenance');
  await expect(page.getByTestId('gc-preview')).toBeEnabled();
  await expect(page.getByTestId('action-access-note')).toHaveCount(0);
});
