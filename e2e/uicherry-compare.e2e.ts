import { expect, openSignedIn, storeCall, test } from './fixtures.js';
import { apply, freshNamespace as fresh, mainAndFeature, screen } from './store-helpers.js';

const freshNamespace = (name: string): string => fresh('uicherry', name);

interface BranchList {
  readonly branches: readonly { readonly name: string; readonly base_revision: number }[];
}

test('Compare on a branch made from main opens on what the branch changed: its base against its head', async ({
  page,
}) => {
  const namespace = freshNamespace('compare-branch');
  await mainAndFeature(namespace);
  await apply(namespace, 'feature', 'feature work', { 'b.txt': 'feature\n', 'c.txt': 'new\n' });
  const feature = await apply(namespace, 'feature', 'more feature work', { 'd.txt': 'd\n' });
  // main moving on afterwards is no part of what the branch changed.
  await apply(namespace, 'main', 'main work', { 'a.txt': 'main\n' });
  const { branches } = await storeCall<BranchList>(
    `/v1/branches?namespace=${encodeURIComponent(namespace)}&branch=feature`,
  );
  const base = branches.find((branch) => branch.name === 'feature')!.base_revision;

  await openSignedIn(page, screen('compare', namespace, 'feature'));
  const compare = page.getByTestId('compare-screen');
  await expect(compare).toContainText(`3 documents differ between #${base} and #${feature.revision}`);
  await expect(page.getByRole('textbox', { name: 'From: revision id', exact: true })).toHaveValue(String(base));
});

test('Compare on main opens on its last write: the revision before the head against the head', async ({ page }) => {
  const namespace = freshNamespace('compare-main');
  const one = await apply(namespace, 'main', 'one', { 'a.txt': '1\n', 'b.txt': '1\n' });
  const two = await apply(namespace, 'main', 'two', { 'b.txt': '2\n' });
  await openSignedIn(page, screen('compare', namespace));
  const compare = page.getByTestId('compare-screen');
  await expect(compare).toContainText(`1 document differs between #${one.revision} and #${two.revision}`);
  await expect(page.getByTestId('changes-list')).toContainText('b.txt');
});

test('Swap sides, from the keyboard, compares the other way round and keeps it in the address', async ({ page }) => {
  const namespace = freshNamespace('compare-swap');
  const one = await apply(namespace, 'main', 'one', { 'a.txt': '1\n' });
  const two = await apply(namespace, 'main', 'two', { 'a.txt': '2\n', 'b.txt': 'b\n' });
  await openSignedIn(page, screen('compare', namespace, 'main', `&from=${one.revision}&to=${two.revision}`));
  const compare = page.getByTestId('compare-screen');
  await expect(compare).toContainText(`2 documents differ between #${one.revision} and #${two.revision}`);

  const swap = page.getByRole('button', { name: 'Swap sides' });
  await page.getByRole('textbox', { name: 'To: revision id', exact: true }).focus();
  for (let step = 0; step < 10 && !(await swap.evaluate((node) => node.matches(':focus'))); step += 1)
    await page.keyboard.press('Tab');
  await expect(swap).toBeFocused();
  await page.keyboard.press('Enter');

  await expect(compare).toContainText(`2 documents differ between #${two.revision} and #${one.revision}`);
  await expect(page).toHaveURL(new RegExp(`from=${two.revision}&to=${one.revision}`));
  // b.txt is now one the comparison takes away.
  await expect(page.getByTestId('changes-list')).toContainText('b.txt');
  await page.reload();
  await expect(compare).toContainText(`2 documents differ between #${two.revision} and #${one.revision}`);
});
