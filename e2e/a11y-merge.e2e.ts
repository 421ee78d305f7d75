import type { Page } from '@playwright/test';
import { expect, openSignedIn, storeCall, test } from './fixtures.js';
import { allowStatus, apply, freshNamespace, screen } from './store-helpers.js';

/** `main` and `feature` both changed flags.yaml since they parted, and feature added notes.md. */
async function conflictingBranches(): Promise<string> {
  const namespace = freshNamespace('a11y', 'merge');
  await apply(namespace, 'main', 'start', { 'flags.yaml': 'x: 1\n' });
  await storeCall('/v1/branches', { scope: { namespace, branch: 'main' }, name: 'feature' });
  await apply(namespace, 'main', 'ours', { 'flags.yaml': 'x: 2\n' });
  await apply(namespace, 'feature', 'theirs', { 'flags.yaml': 'x: 3\n', 'notes.md': 'new\n' });
  return namespace;
}

/**
 * Opens the merge dialog of feature into main, in conflict, from Branches (by the button's visible label).
 * The store's dry run refuses such a merge with 409 until each conflict has a side, as the test means it to.
 */
async function openConflictingMerge(page: Page, consoleErrors: string[]) {
  const namespace = await conflictingBranches();
  await openSignedIn(page, screen('branches', namespace));
  await page.getByRole('button', { name: /^Merge into main/ }).click();
  const dialog = page.getByTestId('merge-dialog');
  await expect(dialog.getByRole('heading', { name: 'Merge feature into main' })).toBeVisible();
  // The choices show once the refusal has arrived.
  await expect(dialog.getByTestId('merge-conflict-choices')).toBeVisible();
  allowStatus(consoleErrors, 409);
  return dialog;
}

test('the Merge button is named by its visible label first (WCAG 2.5.3), as Restore beside it', async ({ page }) => {
  const namespace = await conflictingBranches();
  await openSignedIn(page, screen('branches', namespace));
  const row = page.getByRole('row', { name: /^feature/ });
  for (const button of [row.getByRole('button', { name: /^Merge/ }), row.getByRole('button', { name: /^Restore/ })]) {
    await expect(button).toBeVisible();
    const visible = (await button.innerText()).trim().replace(/…$/, '');
    expect(await button.getAttribute('aria-label'), `the name of "${visible}"`).toMatch(new RegExp(`^${visible}\\b`));
  }
});

test('merge dialog: a named conflicts table, and a progress status updated in place', async ({
  page,
  consoleErrors,
}) => {
  const dialog = await openConflictingMerge(page, consoleErrors);
  await expect(dialog.getByRole('table', { name: 'Conflicts' })).toBeVisible();
  // Each diff's change count names its diff: two "1 change" regions could not be told apart.
  await expect(dialog.getByTestId('diff-nav').first()).toBeVisible();
  const counts = await dialog.getByTestId('diff-nav').getByRole('status').allTextContents();
  expect(counts.length).toBeGreaterThan(1);
  expect(new Set(counts).size, counts.join(' | ')).toBe(counts.length);
  const progress = dialog.getByTestId('merge-conflict-progress');
  await expect(progress).toHaveRole('status');
  await expect(progress).toContainText('0 of 1 conflict resolved');
  // Marked, to tell the same region updated from one put in its place.
  await progress.evaluate((node: { dataset: Record<string, string> }) => (node.dataset.seen = 'yes'));

  await dialog.getByRole('radiogroup', { name: 'flags.yaml' }).getByRole('radio', { name: 'Keep ours' }).click();
  await expect(progress).toContainText('All conflicts resolved');
  await expect(progress).toHaveAttribute('data-seen', 'yes');
  await expect(progress).toHaveRole('status');
  await expect(dialog.getByTestId('confirm-merge')).toBeEnabled();
});

test('a dialog’s title bar is part of the dialog, not a banner landmark of the page', async ({
  page,
  consoleErrors,
}) => {
  const dialog = await openConflictingMerge(page, consoleErrors);
  // Read from Chromium's own accessibility tree, which is what a screen reader is given.
  const chromium = await page.context().newCDPSession(page);
  const { nodes } = await chromium.send('Accessibility.getFullAXTree');
  expect(nodes.filter((node) => node.role?.value === 'banner')).toHaveLength(0);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  await page.keyboard.press('?');
  const shortcuts = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(shortcuts.getByRole('heading', { name: 'Keyboard shortcuts' })).toBeVisible();
  await expect(shortcuts.getByRole('banner')).toHaveCount(0);
});
