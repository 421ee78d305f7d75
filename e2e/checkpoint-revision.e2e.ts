import { expect, openSignedIn, saveScreenshot, storeCall, test } from './fixtures.js';
import { apply, freshNamespace, screen } from './store-helpers.js';

interface Listed {
  readonly checkpoints: readonly { readonly name: string; readonly revision_id: number }[];
}

test('checkpoint any revision from History: the dialog names it, and the store marks it, not the head', async ({
  page,
}) => {
  const namespace = freshNamespace('checkpoint-revision', 'older');
  await apply(namespace, 'main', 'one', { 'a.txt': '1\n' });
  const two = await apply(namespace, 'main', 'Raise the limit\n\nFor the launch.', { 'a.txt': '2\n' });
  const three = await apply(namespace, 'main', 'three', { 'a.txt': '3\n' });
  await storeCall('/v1/checkpoints', { scope: { namespace, branch: 'main' }, name: 'approved', description: 'ok' });

  await openSignedIn(page, screen('history', namespace, 'main', `&rev=${two.revision}`));
  await page.getByRole('button', { name: 'Checkpoint this revision…' }).click();
  const dialog = page.getByTestId('checkpoint-dialog');
  await expect(dialog).toContainText(`Marks #${two.revision} of main, “Raise the limit”.`);
  // A name that exists moves here from the head, keeping its description.
  await dialog.getByLabel('Name').fill('approved');
  await expect(dialog).toContainText(`“approved” exists at #${three.revision}; it will move to #${two.revision}.`);
  await expect(dialog.getByLabel('Description')).toHaveValue('ok');
  await dialog.getByLabel('Name').fill('reviewed');
  await saveScreenshot(page, 'checkpoint-revision-dialog');

  const sent = page.waitForRequest(
    (request) => request.url().endsWith('/v1/checkpoints') && request.method() === 'POST',
  );
  await dialog.getByTestId('confirm-checkpoint').click();
  expect((await sent).postDataJSON()).toMatchObject({ name: 'reviewed', revision_id: two.revision });
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText(`Checkpoint “reviewed” created at #${two.revision}`)).toBeVisible();

  const listed = await storeCall<Listed>(`/v1/checkpoints?namespace=${encodeURIComponent(namespace)}`);
  expect(listed.checkpoints.find((checkpoint) => checkpoint.name === 'reviewed')?.revision_id).toBe(two.revision);
  // The log marks the revision it names, not the head.
  const log = page.getByRole('listbox', { name: 'Revisions' });
  await expect(log.getByRole('option', { name: /^Raise the limit/ })).toContainText('reviewed');
  await expect(log.getByRole('option', { name: /^three/ })).not.toContainText('reviewed');
});
