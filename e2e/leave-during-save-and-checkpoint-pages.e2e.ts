import { MAX_PAGE_LIMIT } from '../src/shared/store-api.js';
import { expect, gatewayAdmin, openSignedIn, storeCall, test } from './fixtures.js';
import { apply, freshNamespace, screen } from './store-helpers.js';

test('Cache: a leave asked while Save is on its way goes on once the save lands, instead of offering to discard what was saved', async ({
  page,
}) => {
  await openSignedIn(page, 'gateway/cache');
  const ttl = page.getByLabel('Time to live (seconds)');
  await expect(ttl).toBeVisible();
  // The save is held until the leave has been asked, so the two overlap as they do on a slow link.
  let releaseSave: () => void = () => undefined;
  const saveHeld = new Promise<void>((resolve) => (releaseSave = resolve));
  await page.route('**/internal/cache', async (route) => {
    if (route.request().method() === 'PUT') await saveHeld;
    await route.continue();
  });
  try {
    await ttl.fill('4343');
    await page.getByTestId('save-cache').click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Keys' }).click();
    const dialog = page.getByRole('dialog', { name: 'Discard unsaved changes to Cache?' });
    await expect(dialog).toBeVisible();

    releaseSave();
    // Nothing is left to discard: the prompt goes, and so does the navigation it held.
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/ui\/gateway\/keys$/);
    await expect(page.getByRole('heading', { name: 'Keys', level: 1 })).toBeVisible();
    const saved = (await (await gatewayAdmin('/internal/cache')).json()) as { settings: { ttl_seconds?: number } };
    expect(saved.settings.ttl_seconds).toBe(4343);
  } finally {
    releaseSave();
    await gatewayAdmin('/internal/cache', 'PUT', { reset: true });
  }
});

test('Documents: a checkpoint past the first page of the namespace’s checkpoint list is shown, not called missing', async ({
  page,
}) => {
  const namespace = freshNamespace('checkpoint-pages', 'many-checkpoints');
  await apply(namespace, 'main', 'base', { 'a.txt': 'one\n' });
  const latest = await apply(namespace, 'main', 'second', { 'b.txt': 'two\n' });
  // One more checkpoint than a list page holds: the last by name is not on the page the UI reads.
  const names = Array.from({ length: MAX_PAGE_LIMIT + 1 }, (_, index) => `cp-${String(index).padStart(4, '0')}`);
  for (let start = 0; start < names.length; start += 25)
    await Promise.all(
      names
        .slice(start, start + 25)
        .map((name) => storeCall('/v1/checkpoints', { scope: { namespace, branch: 'main' }, name })),
    );
  const last = names.at(-1)!;

  await openSignedIn(page, screen('documents', namespace, 'main', `&checkpoint=${last}`));
  const picker = page.getByTestId('revision-picker');
  await expect(picker).toHaveValue(`cp:${last}`);
  await expect(page.getByTestId('document-list')).toContainText('b.txt');
  await expect(page.getByTestId('state-summary')).toContainText(`#${latest.revision}`);
  await expect(page.getByRole('alert')).toHaveCount(0);
  // Listed like every other checkpoint, with its revision: the whole list is read.
  await expect(picker.locator('option:checked')).toHaveText(`${last} (#${latest.revision})`);
  await expect(picker).not.toHaveAttribute('aria-invalid', 'true');
});
