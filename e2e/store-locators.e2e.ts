import { expect, openSignedIn, test } from './fixtures.js';
import { apply, freshNamespace, screen } from './store-helpers.js';

/**
 * The store screens' controls are found by role and name alone, as a script (or a screen reader's
 * list of controls) finds them: no two controls on a screen share a name.
 */
test('compare: each side names its own source input', async ({ page }) => {
  const namespace = freshNamespace('locators', 'compare');
  const first = await apply(namespace, 'main', 'one', { 'a.txt': '1\n' });
  const second = await apply(namespace, 'main', 'two', { 'a.txt': '2\n' });
  await openSignedIn(page, screen('compare', namespace, 'main', `&from=${first.revision}&to=${second.revision}`));

  const from = page.getByRole('textbox', { name: 'From: revision id', exact: true });
  const to = page.getByRole('textbox', { name: 'To: revision id', exact: true });
  await expect(from).toHaveValue(String(first.revision));
  await expect(to).toHaveValue(String(second.revision));
  await expect(page.getByRole('textbox', { name: 'Revision id' })).toHaveCount(2);

  await page.getByRole('radiogroup', { name: 'To: kind' }).getByRole('radio', { name: 'Branch' }).click();
  await expect(page.getByRole('combobox', { name: 'To: branch', exact: true })).toHaveValue('main');
  await page.getByRole('radiogroup', { name: 'From: kind' }).getByRole('radio', { name: 'Checkpoint' }).click();
  await expect(page.getByRole('combobox', { name: 'From: checkpoint', exact: true })).toBeVisible();
});
