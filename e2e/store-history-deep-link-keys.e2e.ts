import { expect, openSignedIn, storeCall, test } from './fixtures.js';
import { apply, applyMany, freshNamespace, screen } from './store-helpers.js';

test('History: j/k pressed before a linked old revision’s row is read go on from it, not from the head', async ({
  page,
}) => {
  const namespace = freshNamespace('deep-link', 'keys');
  // Three pages of the log: the fifth revision is on the last.
  const revisions = await applyMany(namespace, 'main', 250);
  const target = revisions[4]!;
  const newer = revisions[5]!;
  try {
    // The log's later pages wait until the key has been pressed, as they would on a slow connection.
    let release = (): void => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/v1\/log\?/, async (route) => {
      if (new URL(route.request().url()).searchParams.has('after')) await released;
      await route.continue().catch(() => undefined);
    });

    await openSignedIn(page, screen('history', namespace, 'main', `&rev=${target.revision}`));
    await expect(page.getByRole('heading', { name: target.message, exact: true })).toBeVisible();
    const log = page.getByTestId('log-list');
    await expect(log).toBeFocused();
    await expect(log.getByRole('option', { selected: true })).toHaveCount(0);
    await page.keyboard.press('k');
    release();

    await expect(page).toHaveURL(new RegExp(`[?&]rev=${newer.revision}(&|$)`));
    const selected = log.getByRole('option', { selected: true });
    await expect(selected).toContainText(newer.message);
    await expect(selected).toBeInViewport();
    await expect(page.getByRole('heading', { name: newer.message, exact: true })).toBeVisible();
    // Once read, j / k go on as usual.
    await page.keyboard.press('j');
    await expect(page).toHaveURL(new RegExp(`[?&]rev=${target.revision}(&|$)`));
  } finally {
    // The gc tests count every branch's revisions in the app: leave none of these behind.
    await storeCall('/v1/branches', { namespace, name: 'main' }, 'DELETE');
  }
});

test('History: j/k after a link to a revision the document filter leaves out move through the list, not nowhere', async ({
  page,
}) => {
  const namespace = freshNamespace('deep-link', 'filtered');
  await apply(namespace, 'main', 'both', { 'a.txt': 'a1\n', 'b.txt': 'b1\n' });
  const onlyA = await apply(namespace, 'main', 'only a', { 'a.txt': 'a2\n' });
  const onlyB = await apply(namespace, 'main', 'only b', { 'b.txt': 'b2\n' });
  // The linked revision changed a.txt alone: the list of b.txt's revisions never holds its row, and
  // every j / k was kept for it, for ever. The revision itself is read after the key is pressed, as on a
  // slow connection: the move kept meanwhile is made once it is clear the row will not come, not dropped.
  let release = (): void => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/v1\/revisions\//, async (route) => {
    await released;
    await route.continue().catch(() => undefined);
  });
  await openSignedIn(page, screen('history', namespace, 'main', `&document=b.txt&rev=${onlyA.revision}`));
  const log = page.getByTestId('log-list');
  await expect(log.getByRole('option')).toHaveCount(2);
  await log.focus();
  await page.keyboard.press('j');
  release();
  await expect(page).toHaveURL(new RegExp(`[?&]rev=${onlyB.revision}(&|$)`));
  await expect(log.getByRole('option', { selected: true })).toContainText('only b');
});
