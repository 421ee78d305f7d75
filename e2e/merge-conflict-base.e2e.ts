import { allowStatus, apply, freshNamespace as fresh, openMerge } from './store-helpers.js';
import { expect, saveScreenshot, storeCall, test } from './fixtures.js';

// A conflict opens on ours against theirs, and switches to what each side changed since the merge base.

const freshNamespace = (name: string): string => fresh('merge-conflict-base', name);

const BASE = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n';

test('Base → ours shows only main’s edit, Base → theirs only feature’s, and a document both created is not in the base', async ({
  page,
  consoleErrors,
}) => {
  const namespace = freshNamespace('three-way');
  const start = await apply(namespace, 'main', 'start', { 'doc.txt': BASE });
  await storeCall('/v1/branches', { scope: { namespace, branch: 'main' }, name: 'feature' });
  // Each side edits its own line of the same document: a conflict by document, two edits by line.
  await apply(namespace, 'feature', 'feature work', {
    'doc.txt': BASE.replace('seven', 'SEVEN (feature)'),
    'both.txt': 'feature: 1\n',
  });
  await apply(namespace, 'main', 'main work', {
    'doc.txt': BASE.replace('one', 'ONE (main)'),
    'both.txt': 'main: 1\n',
  });
  // The base is read only for the conflicting documents, and once for the dialog.
  const baseReads: string[][] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/v1/state' && url.searchParams.has('key')) baseReads.push(url.searchParams.getAll('key'));
  });
  const dialog = await openMerge(page, namespace);
  const choices = dialog.getByTestId('merge-conflict-choices');
  await expect(choices.getByRole('radiogroup', { name: 'both.txt', exact: true })).toBeVisible();
  expect(baseReads).toEqual([]);

  await choices.getByRole('button', { name: 'Compare ours and theirs of doc.txt' }).click();
  const sides = choices.getByTestId('conflict-sides');
  const view = sides.getByRole('radiogroup', { name: 'Diff shown for doc.txt' });
  // Today's view stays the default.
  await expect(view.getByRole('radio', { name: 'Ours ↔ theirs' })).toHaveAttribute('aria-checked', 'true');
  await expect(sides.getByRole('table', { name: 'Ours (main) against theirs (feature) of doc.txt' })).toBeVisible();

  await view.getByRole('radio', { name: 'Base → ours' }).click();
  const baseOurs = sides.getByRole('table', { name: `Base (main@${start.revision}) against ours (main) of doc.txt` });
  await expect(baseOurs.locator('td.diff-code.diff-del')).toHaveText([/^one$/]);
  await expect(baseOurs.locator('td.diff-code.diff-add')).toHaveText([/ONE \(main\)/]);
  await expect(baseOurs).not.toContainText('feature');

  // The keyboard moves the switch as any radio group: the next option is Base → theirs.
  await view.getByRole('radio', { name: 'Base → ours' }).press('ArrowRight');
  await expect(view.getByRole('radio', { name: 'Base → theirs' })).toBeFocused();
  const baseTheirs = sides.getByRole('table', {
    name: `Base (main@${start.revision}) against theirs (feature) of doc.txt`,
  });
  await expect(baseTheirs.locator('td.diff-code.diff-del')).toHaveText([/^seven$/]);
  await expect(baseTheirs.locator('td.diff-code.diff-add')).toHaveText([/SEVEN \(feature\)/]);
  await expect(baseTheirs).not.toContainText('main');
  await saveScreenshot(page, 'merge-conflict-base');

  // A document the base did not hold was created by each side.
  await choices.getByRole('button', { name: 'Compare ours and theirs of both.txt' }).click();
  const both = sides.filter({ has: page.getByRole('radiogroup', { name: 'Diff shown for both.txt' }) });
  await both.getByRole('radio', { name: 'Base → theirs' }).click();
  await expect(both).toContainText('not in the base: created on both sides');
  const created = both.getByRole('table', {
    name: `Base (main@${start.revision}) against theirs (feature) of both.txt`,
  });
  await expect(created.locator('td.diff-code.diff-del')).toHaveCount(0);
  await expect(created.locator('td.diff-code.diff-add')).toHaveText([/feature: 1/]);
  expect(baseReads.map((keys) => [...keys].sort())).toEqual([['both.txt', 'doc.txt']]);
  allowStatus(consoleErrors, 409);
});

test('branches with no common revision offer only ours against theirs', async ({ page, consoleErrors }) => {
  const namespace = freshNamespace('no-base');
  await apply(namespace, 'main', 'main start', { 'doc.txt': 'main\n' });
  // Written without branching from main: the two histories never met.
  await apply(namespace, 'feature', 'feature start', { 'doc.txt': 'feature\n' });
  const dialog = await openMerge(page, namespace);
  const sides = dialog.getByTestId('conflict-sides');
  await expect(sides).toContainText('No common revision: no base to compare with.');
  await expect(sides.getByRole('radiogroup')).toHaveCount(0);
  await expect(sides.getByRole('table', { name: 'Ours (main) against theirs (feature) of doc.txt' })).toBeVisible();
  allowStatus(consoleErrors, 409);
});
