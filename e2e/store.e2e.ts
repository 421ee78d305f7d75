import { expect, openSignedIn, saveScreenshot, storeCall, test } from './fixtures.js';

const config = (replicas: number, port: number) =>
  `{\n  "service": "billing",\n  "replicas": ${replicas},\n  "port": ${port}\n}\n`;

interface State {
  readonly revision: number;
  readonly objects: Record<string, string>;
}

test('apply through the API, browse the log, open a diff, roll back and see the state change', async ({ page }) => {
  const namespace = `e2e/store-${Date.now()}`;
  const scope = { namespace, branch: 'main' };
  const first = await storeCall<{ revision: number }>('/v1/apply', {
    scope,
    message: 'Initial configuration',
    documents: [
      { key: 'services/billing.json', content: config(2, 8080) },
      { key: 'notes.txt', content: 'keep me\n' },
    ],
  });
  const second = await storeCall<{ revision: number }>('/v1/apply', {
    scope,
    message: 'Scale billing to 4 replicas',
    documents: [{ key: 'services/billing.json', content: config(4, 9090) }],
  });
  await storeCall('/v1/apply', { scope, message: 'Drop the notes', documents: [{ key: 'notes.txt', delete: true }] });

  // The log: newest first, each entry with id, message and changed keys.
  await openSignedIn(page, `store/history?ns=${encodeURIComponent(namespace)}&branch=main`);
  const rows = page.getByTestId('log-row');
  await expect(rows).toHaveCount(3);
  await expect(rows.first()).toContainText('Drop the notes');
  await expect(rows.first()).toContainText('notes.txt');
  await expect(page.getByTestId('diff-key')).toHaveText('notes.txt');
  await expect(page.getByTestId('revision-detail')).toContainText('Deleted');

  // Keyboard: j moves to the older revision, and its diff shows the changed words highlighted.
  await page.getByTestId('log-list').focus();
  await page.keyboard.press('j');
  await expect(page).toHaveURL(new RegExp(`rev=${second.revision}`));
  await expect(page.getByTestId('revision-detail')).toContainText('Scale billing to 4 replicas');
  const diff = page.getByTestId('diff-view');
  await expect(diff).toHaveAttribute('data-mode', 'split');
  await expect(diff.locator('mark.word-del')).toContainText(['2', '8080']);
  await expect(diff.locator('mark.word-add')).toContainText(['4', '9090']);
  await saveScreenshot(page, 'store-history-diff');

  // Unified layout, toggled with the keyboard shortcut.
  await page.keyboard.press('u');
  await expect(diff).toHaveAttribute('data-mode', 'unified');
  await saveScreenshot(page, 'store-history-diff-unified');
  await page.keyboard.press('u');

  // Roll back to the first revision: the preview shows what will change, then confirm.
  await page.keyboard.press('j');
  await expect(page).toHaveURL(new RegExp(`rev=${first.revision}`));
  await page.getByTestId('rollback-button').click();
  const dialog = page.getByTestId('rollback-dialog');
  await expect(dialog.getByTestId('action-preview')).toContainText('2 documents would change');
  await expect(dialog.getByTestId('changes-list')).toContainText('notes.txt');
  // The shortcut works with the preview open too: the preview's diff and the screen's share one layout.
  await dialog.getByRole('button', { name: 'Cancel' }).focus();
  await page.keyboard.press('u');
  await expect(dialog.getByTestId('diff-view')).toHaveAttribute('data-mode', 'unified');
  await page.keyboard.press('u');
  await expect(dialog.getByTestId('diff-view')).toHaveAttribute('data-mode', 'split');
  await saveScreenshot(page, 'store-rollback-preview');
  await dialog.getByTestId('confirm-rollback').click();
  await expect(dialog).toBeHidden();

  // The new revision is at the top of the log and the state equals the first revision's again.
  await expect(rows).toHaveCount(4);
  await expect(rows.first()).toContainText(`Roll back to #${first.revision}`);
  const state = await storeCall<State>(`/v1/state?namespace=${encodeURIComponent(namespace)}&branch=main`);
  expect(state.objects).toEqual({ 'services/billing.json': config(2, 8080), 'notes.txt': 'keep me\n' });

  await page.getByRole('link', { name: 'Documents' }).first().click();
  await expect(page.getByTestId('state-summary')).toContainText('2 documents');
  await page.getByTestId('document-list').getByText('services/billing.json').click();
  await expect(page.getByTestId('content-view')).toContainText('"replicas": 2');
  await saveScreenshot(page, 'store-documents');
});

test('checkpoints, branches and restore from a branch, each previewed before it runs', async ({ page }) => {
  const namespace = `e2e/branches-${Date.now()}`;
  const scope = { namespace, branch: 'main' };
  await storeCall('/v1/apply', { scope, message: 'v1', documents: [{ key: 'limits.yaml', content: 'rpm: 60\n' }] });

  await openSignedIn(page, `store/checkpoints?ns=${encodeURIComponent(namespace)}&branch=main`);
  await page.getByTestId('new-checkpoint').click();
  await page.getByTestId('checkpoint-dialog').getByLabel('Name', { exact: true }).fill('release-1');
  await page.getByTestId('confirm-checkpoint').click();
  await expect(page.getByTestId('checkpoints-table')).toContainText('release-1');

  await page.goto(page.url().replace('store/checkpoints', 'store/branches'));
  await page.getByTestId('new-branch').click();
  const branchDialog = page.getByTestId('branch-dialog');
  await branchDialog.getByLabel('Branch name').fill('feature/higher-limits');
  await expect(branchDialog.getByTestId('action-preview')).toContainText('limits.yaml');
  await branchDialog.getByTestId('confirm-branch').click();
  await expect(page).toHaveURL(/branch=feature%2Fhigher-limits/);

  await storeCall('/v1/apply', {
    scope: { namespace, branch: 'feature/higher-limits' },
    message: 'raise',
    documents: [{ key: 'limits.yaml', content: 'rpm: 120\n' }],
  });
  await page.goto(
    page
      .url()
      .replace('store/history', 'store/branches')
      .replace(/branch=[^&]+/, 'branch=main'),
  );
  await expect(page.getByTestId('branches-table')).toContainText('feature/higher-limits');
  await page.getByRole('button', { name: 'Restore into main' }).click();
  const restore = page.getByTestId('restore-dialog');
  await expect(restore.getByTestId('action-preview')).toContainText('1 document would change');
  await saveScreenshot(page, 'store-restore-preview');
  await restore.getByTestId('confirm-restore').click();
  await expect(restore).toBeHidden();
  const state = await storeCall<State>(`/v1/state?namespace=${encodeURIComponent(namespace)}&branch=main`);
  expect(state.objects['limits.yaml']).toBe('rpm: 120\n');
});

test('the log pages through a long history as it scrolls', async ({ page }) => {
  const namespace = `e2e/long-${Date.now()}`;
  const scope = { namespace, branch: 'main' };
  for (let index = 1; index <= 250; index++) {
    await storeCall('/v1/apply', {
      scope,
      message: `change ${index}`,
      documents: [{ key: 'counter.txt', content: `${index}\n` }],
    });
  }
  await openSignedIn(page, `store/history?ns=${encodeURIComponent(namespace)}&branch=main`);
  // The whole branch is counted from the first page, before the rest is read.
  await expect(page.getByText('250 revisions')).toBeVisible();
  // Only the rows in view are in the DOM, however long the history.
  expect(await page.getByTestId('log-row').count()).toBeLessThan(60);

  const list = page.getByTestId('log-list');
  await list.focus();
  const first = page.locator('[data-testid="log-row"][data-revision="1"]');
  for (let attempt = 0; attempt < 10 && !(await first.isVisible()); attempt++) {
    await page.keyboard.press('End');
    await page.waitForTimeout(300);
  }
  await expect(first).toBeVisible();
  await expect(page.getByText('250 revisions')).toBeVisible();
  await expect(page.getByTestId('revision-detail')).toContainText('change 1');
});

// Last in this file: gc covers every namespace, so it runs once the other store flows are done.
test('garbage collection previews how many revisions would go, then prunes exactly those', async ({ page }) => {
  const namespace = `e2e/gc-${Date.now()}`;
  const scope = { namespace, branch: 'main' };
  for (let index = 1; index <= 12; index++)
    await storeCall('/v1/apply', {
      scope,
      message: `gc ${index}`,
      documents: [{ key: 'n.txt', content: `${index}\n` }],
    });
  // What the store itself says keep=3 would prune across every namespace (other tests' too).
  const expected = (await storeCall<{ pruned: number }>('/v1/gc', { keep: 3, dry_run: true })).pruned;
  expect(expected).toBeGreaterThanOrEqual(9);

  await openSignedIn(page, `store/history?ns=${encodeURIComponent(namespace)}&branch=main`);
  await expect(page.getByText('12 revisions')).toBeVisible();
  await page.getByRole('link', { name: 'Maintenance' }).click();
  await page.getByLabel('Revisions to keep per branch').fill('3');
  await page.getByTestId('gc-preview').click();
  await expect(page.getByTestId('gc-result')).toHaveText(`${expected} revisions would be pruned.`);
  await saveScreenshot(page, 'store-gc-preview');
  // The preview deleted nothing.
  expect(
    (
      await storeCall<{ entries: unknown[] }>(
        `/v1/log?namespace=${encodeURIComponent(namespace)}&branch=main&limit=100`,
      )
    ).entries,
  ).toHaveLength(12);

  await page.getByTestId('gc-run').click();
  await page.getByTestId('gc-confirm').click();
  await expect(page.getByText(`Pruned ${expected} revisions`)).toBeVisible();
  await page.goto(
    page.url().replace(/store\/maintenance.*/, `store/history?ns=${encodeURIComponent(namespace)}&branch=main`),
  );
  await expect(page.getByText('3 revisions')).toBeVisible();
  await expect(page.getByTestId('log-row')).toHaveCount(3);
});
