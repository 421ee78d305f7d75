import { expect, openSignedIn, storeCall, test } from './fixtures.js';
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

test('checkpoints and branches: each row’s buttons name the row’s checkpoint or branch', async ({ page }) => {
  const namespace = freshNamespace('locators', 'rows');
  await apply(namespace, 'main', 'one', { 'a.txt': '1\n' });
  for (const name of ['first', 'second']) {
    await storeCall('/v1/checkpoints', { scope: { namespace, branch: 'main' }, name });
    await storeCall('/v1/branches', { scope: { namespace, branch: 'main' }, name: `side-${name}` });
    await apply(namespace, `side-${name}`, name, { [`${name}.txt`]: `${name}\n` });
    await storeCall('/v1/checkpoints', { scope: { namespace, branch: `side-${name}` }, name: `on-${name}` });
  }

  await openSignedIn(page, screen('checkpoints', namespace));
  await page.getByRole('button', { name: 'Roll back to second', exact: true }).click();
  const rollback = page.getByRole('dialog');
  await expect(rollback).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'Roll back to first', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Restore into main from on-second', exact: true }).click();
  const restore = page.getByTestId('restore-dialog');
  await expect(restore.getByRole('combobox', { name: 'Checkpoint' })).toHaveValue('on-second');
  await page.keyboard.press('Escape');

  await openSignedIn(page, screen('branches', namespace));
  // The column of row buttons is named too, though blank on screen.
  await expect(page.getByTestId('branches-table').getByRole('columnheader').last()).toHaveText('Actions');
  await page.getByRole('button', { name: 'Restore into main from side-second', exact: true }).click();
  await expect(restore.getByRole('combobox', { name: 'Branch' })).toHaveValue('side-second');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'Restore into main from side-first', exact: true })).toBeVisible();
});

test('a revision’s or a comparison’s diff of one document is in the address: a link or a reload opens it', async ({
  page,
}) => {
  const namespace = freshNamespace('locators', 'diff-link');
  const first = await apply(namespace, 'main', 'one', { 'a.txt': 'a1\n', 'b.txt': 'b1\n', 'c.txt': 'c1\n' });
  const second = await apply(namespace, 'main', 'two', { 'a.txt': 'a2\n', 'b.txt': 'b2\n', 'c.txt': 'c2\n' });

  await openSignedIn(page, screen('history', namespace, 'main', `&rev=${second.revision}&key=b.txt`));
  const changed = page.getByRole('listbox', { name: 'Changed documents' });
  await expect(changed.getByRole('option', { name: 'b.txt, modified' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('diff-key')).toHaveText('b.txt');

  await changed.getByRole('option', { name: 'c.txt, modified' }).click();
  await expect(page).toHaveURL(/[?&]key=c\.txt(&|$)/);
  await page.reload();
  await expect(changed.getByRole('option', { name: 'c.txt, modified' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('diff-key')).toHaveText('c.txt');

  // Another revision starts on its own first document.
  await page.getByRole('listbox', { name: 'Revisions' }).getByRole('option', { name: /^one/ }).click();
  await expect(page).not.toHaveURL(/[?&]key=/);
  await expect(page.getByTestId('diff-key')).toHaveText('a.txt');

  await openSignedIn(
    page,
    screen('compare', namespace, 'main', `&from=${first.revision}&to=${second.revision}&key=c.txt`),
  );
  await expect(changed.getByRole('option', { name: 'c.txt, modified' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('diff-key')).toHaveText('c.txt');
});

test('a diff and a document’s content are tables named for their document, with named columns', async ({ page }) => {
  const namespace = freshNamespace('locators', 'diff-table');
  await apply(namespace, 'main', 'one', { 'a.txt': 'same\nold\n' });
  const second = await apply(namespace, 'main', 'two', { 'a.txt': 'same\nnew\n' });

  await openSignedIn(page, screen('history', namespace, 'main', `&rev=${second.revision}`));
  const diff = page.getByRole('table', { name: 'Diff of a.txt' });
  await expect(diff.getByRole('columnheader')).toHaveText(['Old line', 'Before', 'New line', 'After']);
  // A cell is read by its column, as a script or a screen reader would.
  const changed = diff.getByRole('row').filter({ hasText: 'new' });
  await expect(changed.getByRole('cell').nth(1)).toHaveText('old');
  await expect(changed.getByRole('cell').nth(3)).toHaveText('new');
  // The header row takes no room on screen.
  const header = await diff.locator('thead').boundingBox();
  expect(header?.height ?? 0).toBeLessThanOrEqual(1);

  await page.getByRole('radiogroup', { name: 'Diff layout' }).getByRole('radio', { name: 'Unified' }).click();
  await expect(diff.getByRole('columnheader')).toHaveText(['Old line', 'New line', 'Change', 'Text']);
  await page.getByRole('radiogroup', { name: 'Diff layout' }).getByRole('radio', { name: 'Side by side' }).click();

  await openSignedIn(page, screen('documents', namespace, 'main', '&key=a.txt'));
  const content = page.getByRole('table', { name: 'Content of a.txt' });
  await expect(content.getByRole('columnheader')).toHaveText(['Line', 'Text']);
  await expect(content.getByRole('row').filter({ hasText: 'new' }).getByRole('cell').nth(1)).toHaveText('new');
});

test('documents: the key filter is in the address, so a reload or a link shows the same filtered list', async ({
  page,
}) => {
  const namespace = freshNamespace('locators', 'doc-filter');
  await apply(namespace, 'main', 'one', { 'app/a.json': '{}\n', 'app/b.json': '{}\n', 'docs/readme.md': '# hi\n' });

  await openSignedIn(page, screen('documents', namespace));
  const list = page.getByRole('listbox', { name: 'Documents' });
  await expect(list.getByRole('option')).toHaveCount(3);
  await page.getByRole('textbox', { name: 'Filter keys' }).fill('app/');
  await expect(page).toHaveURL(/[?&]q=app%2F(&|$)/);
  await expect(list.getByRole('option')).toHaveText(['app/a.json', 'app/b.json']);

  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Filter keys' })).toHaveValue('app/');
  await expect(list.getByRole('option')).toHaveText(['app/a.json', 'app/b.json']);

  await openSignedIn(page, screen('documents', namespace, 'main', '&q=readme'));
  await expect(list.getByRole('option')).toHaveText(['docs/readme.md']);
  await page.getByRole('textbox', { name: 'Filter keys' }).fill('');
  await expect(page).not.toHaveURL(/[?&]q=/);
  await expect(list.getByRole('option')).toHaveCount(3);
});

test('history: the revision’s Documents and Compare links are named apart from the sidebar’s', async ({ page }) => {
  const namespace = freshNamespace('locators', 'detail-links');
  const first = await apply(namespace, 'main', 'one', { 'a.txt': '1\n' });
  const second = await apply(namespace, 'main', 'two', { 'a.txt': '2\n' });

  await openSignedIn(page, screen('history', namespace, 'main', `&rev=${first.revision}`));
  await expect(page.getByRole('link', { name: 'Documents', exact: true })).toHaveCount(1);
  await expect(page.getByRole('link', { name: 'Compare', exact: true })).toHaveCount(1);
  await page.getByRole('link', { name: `Compare #${first.revision} with head`, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`store/compare\\?.*from=${first.revision}&to=${second.revision}`));

  await page.goBack();
  await page.getByRole('link', { name: `Documents at #${first.revision}`, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`store/documents\\?.*rev=${first.revision}`));
  await expect(page.getByRole('table', { name: 'Content of a.txt' })).toContainText('1');

  // The head is compared with the revision before it, not with itself.
  await openSignedIn(page, screen('history', namespace, 'main', `&rev=${second.revision}`));
  await page.getByRole('link', { name: `Compare #${second.revision} with #${first.revision}`, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`store/compare\\?.*from=${first.revision}&to=${second.revision}`));
});

test('history: after Enter and Esc, j and k keep moving through the log', async ({ page }) => {
  const namespace = freshNamespace('locators', 'log-keys');
  await apply(namespace, 'main', 'one', { 'a.txt': '1\n' });
  await apply(namespace, 'main', 'two', { 'a.txt': '2\n' });
  await apply(namespace, 'main', 'three', { 'a.txt': '3\n' });

  await openSignedIn(page, screen('history', namespace));
  const log = page.getByRole('listbox', { name: 'Revisions' });
  await expect(log).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('listbox', { name: 'Changed documents' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(log).toBeFocused();

  await page.keyboard.press('j');
  await expect(log.getByRole('option', { name: /^two/ })).toHaveAttribute('aria-selected', 'true');
  await expect(log).toBeFocused();
  await page.keyboard.press('j');
  await expect(log.getByRole('option', { name: /^one/ })).toHaveAttribute('aria-selected', 'true');
  await expect(log).toBeFocused();
  // Enter still opens the revision now shown.
  await page.keyboard.press('Enter');
  await expect(page.getByRole('listbox', { name: 'Changed documents' })).toBeFocused();
});

test('documents: a revision id being typed keeps focus while the documents it names load', async ({ page }) => {
  const namespace = freshNamespace('locators', 'typed-rev');
  const first = await apply(namespace, 'main', 'one', { 'a.txt': '1\n' });
  const second = await apply(namespace, 'main', 'two', { 'a.txt': '2\n', 'b.txt': 'b\n' });

  await openSignedIn(page, screen('documents', namespace));
  const list = page.getByRole('listbox', { name: 'Documents' });
  await expect(list).toBeFocused();
  await page.getByRole('combobox', { name: 'Revision' }).selectOption({ label: 'Revision…' });
  const id = page.getByRole('textbox', { name: 'Revision id' });
  await expect(id).toHaveValue(String(second.revision));
  // Chosen in the picker, the id box comes next: focus is there, its value selected to type over.
  await expect(id).toBeFocused();
  await page.keyboard.type(String(first.revision));
  await expect(id).toHaveValue(String(first.revision));
  await id.fill(String(first.revision));
  await expect(page.getByTestId('state-summary')).toHaveText(`1 document at #${first.revision}`);
  await expect(id).toBeFocused();
  // Typed key by key, each id loading as it is typed: none of them takes the keys that follow.
  await id.fill('');
  await id.pressSequentially(String(second.revision), { delay: 150 });
  await expect(page.getByTestId('state-summary')).toHaveText(`2 documents at #${second.revision}`);
  await expect(id).toBeFocused();
  await expect(id).toHaveValue(String(second.revision));
});

test('maintenance: the garbage collection preview’s count is a status', async ({ page }) => {
  const namespace = freshNamespace('locators', 'gc-status');
  await apply(namespace, 'main', 'one', { 'a.txt': '1\n' });
  await openSignedIn(page, screen('maintenance', namespace));
  const keep = page.getByRole('textbox', { name: 'Revisions to keep per branch' });
  await keep.fill('9007199254740991');
  await page.getByRole('button', { name: 'Preview', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Nothing to prune' })).toBeVisible();
});
