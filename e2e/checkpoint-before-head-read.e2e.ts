import { expect, openSignedIn, storeCall, test } from './fixtures.js';
import { apply, freshNamespace, screen } from './store-helpers.js';

test('New checkpoint: Enter typed before the branch head is read creates it at the head, not nothing', async ({
  page,
}) => {
  const namespace = freshNamespace('checkpoint', 'early-enter');
  await apply(namespace, 'main', 'one', { 'a.txt': '1\n' });
  const head = await apply(namespace, 'main', 'two', { 'a.txt': '2\n' });
  // The dialog's read of the log waits until Enter has been pressed, as it would on a slow connection.
  let release = (): void => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/v1\/log\?/, async (route) => {
    await released;
    await route.continue().catch(() => undefined);
  });

  await openSignedIn(page, screen('checkpoints', namespace));
  await page.getByTestId('new-checkpoint').click();
  const dialog = page.getByTestId('checkpoint-dialog');
  // Not yet known to be empty: the dialog does not say there is nothing to mark.
  await expect(dialog).toContainText(`Marks the head of main.`);
  await dialog.getByLabel('Name', { exact: true }).fill('early');
  await dialog.getByLabel('Name', { exact: true }).press('Enter');
  // The dialog closes once the screens are refreshed, which reads the log again.
  release();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('checkpoints-table')).toContainText('early');
  const listed = await storeCall<{ checkpoints: { name: string; revision_id: number }[] }>(
    `/v1/checkpoints?namespace=${encodeURIComponent(namespace)}`,
  );
  expect(listed.checkpoints).toEqual([expect.objectContaining({ name: 'early', revision_id: head.revision })]);
});
