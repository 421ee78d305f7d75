import type { Page } from '@playwright/test';
import { expect, openSignedIn, saveScreenshot, test } from './fixtures.js';
import {
  allowStatus,
  apply,
  freshNamespace as fresh,
  holdStoreChanges,
  mainAndFeature,
  screen,
  stateOf,
} from './store-helpers.js';

const freshNamespace = (name: string): string => fresh('uicherry', name);

const cherryPickButton = (page: Page) => page.getByRole('button', { name: 'Cherry-pick onto main…' });

/** `main` and `feature`, with two revisions on feature: the one to pick, and one that must stay behind. */
async function featureWork(namespace: string): Promise<{ picked: number }> {
  await mainAndFeature(namespace);
  const picked = await apply(namespace, 'feature', 'Raise the limit\n\nFor the launch.', {
    'b.txt': 'feature\n',
    'c.txt': 'new\n',
  });
  await apply(namespace, 'feature', 'later work', { 'a.txt': 'feature\n' });
  return { picked: picked.revision };
}

test('cherry-pick a revision of another branch from History: the store’s dry run is the preview, and main gets only its changes', async ({
  page,
}) => {
  const namespace = freshNamespace('pick');
  const { picked } = await featureWork(namespace);
  const before = await stateOf(namespace);
  await openSignedIn(page, screen('history', namespace, 'main', `&rev=${picked}`));
  // A revision of another branch is cherry-picked, not reverted.
  await expect(page.getByTestId('revision-elsewhere')).toContainText(`Cherry-pick makes there only what #${picked}`);
  await expect(page.getByTestId('revert-button')).toHaveCount(0);
  await cherryPickButton(page).click();

  const dialog = page.getByTestId('cherry-pick-dialog');
  const message = dialog.getByLabel('Message');
  await expect(message).toBeFocused();
  await expect(message).toHaveValue('');
  await expect(message).toHaveAttribute(
    'placeholder',
    `Raise the limit (cherry picked from revision ${picked} of branch "feature")`,
  );
  const preview = dialog.getByTestId('action-preview');
  await expect(preview).toContainText('Documents the cherry-pick writes');
  await expect(preview).toContainText('2 documents would change');
  await expect(dialog.getByTestId('changes-list')).toContainText('b.txt');
  await expect(dialog.getByTestId('changes-list')).toContainText('c.txt');
  await saveScreenshot(page, 'uicherry-preview');

  const sent = page.waitForRequest(
    (request) => request.url().endsWith('/v1/cherry-pick') && !request.postDataJSON().dry_run,
  );
  await dialog.getByTestId('confirm-cherry-pick').click();
  const body = (await sent).postDataJSON();
  // The message left as proposed is not sent: the store writes its own, which names where it came from.
  expect(body.message).toBeUndefined();
  await expect(dialog).toBeHidden();
  const after = await stateOf(namespace);
  expect(body.expected_revision).toBe(before.revision);
  expect(after.objects).toEqual({ 'a.txt': '1\n', 'b.txt': 'feature\n', 'c.txt': 'new\n' });
  await expect(page.locator('.toaster')).toContainText(
    `Cherry-picked #${picked} onto main: revision #${after.revision}`,
  );
  await expect(page).toHaveURL(new RegExp(`store/history\\?.*rev=${after.revision}`));
  await expect(page.getByTestId('log-row')).toHaveCount(2);
  const detail = page.getByTestId('revision-detail');
  await expect(detail).toContainText('Raise the limit');
  await expect(detail).toContainText(`(cherry picked from revision ${picked} of branch "feature")`);
  await expect(page.getByTestId('log-list')).toBeFocused();
});

test('a cherry-pick that conflicts names the documents before anything is sent, with Cherry-pick disabled', async ({
  page,
  consoleErrors,
}) => {
  const namespace = freshNamespace('conflict');
  const { picked } = await featureWork(namespace);
  const head = await apply(namespace, 'main', 'main work', { 'b.txt': 'main\n' });
  await openSignedIn(page, screen('history', namespace, 'main', `&rev=${picked}`));
  await cherryPickButton(page).click();
  const dialog = page.getByTestId('cherry-pick-dialog');
  const refusal = dialog.locator('.error-message');
  await expect(refusal).toContainText(`#${picked} cannot be cherry-picked onto main`);
  await expect(refusal).toContainText('"b.txt" (changed in revision');
  await expect(dialog.getByTestId('confirm-cherry-pick')).toBeDisabled();
  await saveScreenshot(page, 'uicherry-conflict');
  const state = await stateOf(namespace);
  expect(state.revision).toBe(head.revision);
  allowStatus(consoleErrors, 409);
});

test('a cherry-pick after main moved says so, previews again against the new head, and then goes through', async ({
  page,
  consoleErrors,
}) => {
  const namespace = freshNamespace('moved');
  const { picked } = await featureWork(namespace);
  await openSignedIn(page, screen('history', namespace, 'main', `&rev=${picked}`));
  await cherryPickButton(page).click();
  const dialog = page.getByTestId('cherry-pick-dialog');
  await expect(dialog.getByTestId('action-preview')).toContainText('2 documents would change');

  const releaseChanges = await holdStoreChanges(page);
  const moved = await apply(namespace, 'main', 'elsewhere', { 'd.txt': 'd\n' });
  await dialog.getByTestId('confirm-cherry-pick').click();
  await releaseChanges();
  await expect(dialog.getByTestId('branch-moved')).toContainText(`main moved to #${moved.revision}`);
  expect((await stateOf(namespace)).revision).toBe(moved.revision);
  await expect(dialog.getByTestId('action-preview')).toContainText('2 documents would change');

  const sent = page.waitForRequest(
    (request) => request.url().endsWith('/v1/cherry-pick') && !request.postDataJSON().dry_run,
  );
  await dialog.getByTestId('confirm-cherry-pick').click();
  expect((await sent).postDataJSON().expected_revision).toBe(moved.revision);
  await expect(dialog).toBeHidden();
  expect((await stateOf(namespace)).objects).toEqual({
    'a.txt': '1\n',
    'b.txt': 'feature\n',
    'c.txt': 'new\n',
    'd.txt': 'd\n',
  });
  allowStatus(consoleErrors, 409);
});

test('cherry-pick is offered only for revisions of other branches, and disabled with the reason for a token that may not write', async ({
  page,
}) => {
  const namespace = freshNamespace('access');
  const { picked } = await featureWork(namespace);
  const own = await apply(namespace, 'main', 'main work', { 'a.txt': 'main\n' });
  await page.route(/\/v1\/token(\?|$)/, (route) => {
    const asked = new URL(route.request().url()).searchParams.get('namespace');
    const verbs = ['read'];
    return route.fulfill({
      json: {
        auth: true,
        name: 'ci',
        verbs,
        namespaces: ['*'],
        ...(asked === null ? {} : { namespace: { name: asked, verbs } }),
      },
    });
  });
  await openSignedIn(page, screen('history', namespace, 'main', `&rev=${own.revision}`));
  await expect(page.getByTestId('revert-button')).toBeVisible();
  await expect(page.getByTestId('cherry-pick-button')).toHaveCount(0);

  await openSignedIn(page, screen('history', namespace, 'main', `&rev=${picked}`));
  const button = cherryPickButton(page);
  await expect(button).toBeDisabled();
  await expect(button).toHaveAccessibleDescription(`This store token (“ci”) may not write to ${namespace}`);
});
