import { expect, openSignedIn, storeCall, test } from './fixtures.js';
import { apply, freshNamespace, screen } from './store-helpers.js';

/** Document keys that are also members of every plain object's prototype. */
const PROTOTYPE_NAMES = ['constructor', 'hasOwnProperty', 'toString', 'valueOf'] as const;

test('compare: documents named like Object.prototype members are created and deleted like any other', async ({
  page,
}) => {
  const namespace = freshNamespace('storefix', 'proto-compare');
  const first = await apply(namespace, 'main', 'plain', { 'a.txt': 'a\n' });
  const second = await apply(
    namespace,
    'main',
    'odd names',
    Object.fromEntries(PROTOTYPE_NAMES.map((name) => [name, `${name} content\n`])),
  );

  await openSignedIn(page, screen('compare', namespace, 'main', `&from=${first.revision}&to=${second.revision}`));
  const compare = page.getByTestId('compare-screen');
  await expect(compare).toContainText(`4 documents differ between #${first.revision} and #${second.revision}`);
  for (const name of PROTOTYPE_NAMES) await expect(compare.getByText(name, { exact: true }).first()).toBeVisible();
  await compare.getByText('toString', { exact: true }).first().click();
  await expect(page.getByTestId('diff-view')).toContainText('toString content');

  // The other way round they are deletions, not "the same documents".
  await openSignedIn(page, screen('compare', namespace, 'main', `&from=${second.revision}&to=${first.revision}`));
  await expect(compare).toContainText(`4 documents differ between #${second.revision} and #${first.revision}`);
  await expect(compare).not.toContainText('have the same documents');
});

test('branches: restoring from a branch without the prototype-named documents deletes them', async ({ page }) => {
  const namespace = freshNamespace('storefix', 'proto-restore');
  await apply(namespace, 'main', 'plain', { 'a.txt': 'a\n' });
  await storeCall('/v1/branches', { scope: { namespace, branch: 'main' }, name: 'plain' });
  await apply(namespace, 'main', 'odd names', { constructor: 'c\n', toString: 't\n' });

  await openSignedIn(page, screen('branches', namespace));
  await page.getByRole('button', { name: 'Restore into main from plain' }).click();
  const preview = page.getByTestId('restore-dialog').getByTestId('action-preview');
  await expect(preview).toContainText('2 documents would change');
  await expect(preview).not.toContainText('already matches');
});

test('documents: a key named like an Object.prototype member that the branch lacks is named as missing', async ({
  page,
}) => {
  const namespace = freshNamespace('storefix', 'proto-missing');
  await apply(namespace, 'main', 'plain', { 'a.txt': 'a\n' });
  for (const name of PROTOTYPE_NAMES) {
    await openSignedIn(page, screen('documents', namespace, 'main', `&key=${name}`));
    await expect(page.getByTestId('document-missing')).toContainText(`No document “${name}” on main`);
    await expect(page.getByTestId('document-list')).toContainText('a.txt');
  }
});
