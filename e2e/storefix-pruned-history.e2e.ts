import { expect, openSignedIn, storeCall, test } from './fixtures.js';
import { apply, freshNamespace, screen } from './store-helpers.js';

test('history marks where gc removed revisions and does not offer a parent that is gone', async ({ page }) => {
  const namespace = freshNamespace('storefix', 'pruned');
  const ids: number[] = [];
  for (let n = 1; n <= 6; n++) ids.push((await apply(namespace, 'main', `edit ${n}`, { 'a.txt': `${n}\n` })).revision);
  // The checkpoint keeps the second revision; gc keeps the newest two and removes the others.
  await storeCall('/v1/checkpoints', { scope: { namespace, branch: 'main' }, name: 'kept', revision_id: ids[1] });
  await storeCall('/v1/gc', { namespace, keep: 2 });

  await openSignedIn(page, screen('history', namespace));
  const rows = page.getByTestId('log-row');
  await expect(rows).toHaveCount(3);
  const [, fifth, second] = [rows.nth(0), rows.nth(1), rows.nth(2)];
  await expect(fifth).toHaveAttribute('data-revision', String(ids[4]));
  // The gap is marked on the row above it, naming the newest revision removed.
  await expect(fifth.getByTestId('log-pruned')).toHaveText(
    `Older revisions up to #${ids[3]} were removed by garbage collection`,
  );
  await expect(rows.nth(0).getByTestId('log-pruned')).toHaveCount(0);
  // The oldest kept one's parent is gone too: the log ends in a gap.
  await expect(second.getByTestId('log-pruned')).toHaveText(
    `Older revisions up to #${ids[0]} were removed by garbage collection`,
  );
  // The note sits inside its row, not over the next one.
  const fifthBox = (await fifth.boundingBox())!;
  const noteBox = (await fifth.getByTestId('log-pruned').boundingBox())!;
  expect(noteBox.y + noteBox.height).toBeLessThanOrEqual(fifthBox.y + fifthBox.height + 1);

  await fifth.click();
  const detail = page.getByTestId('revision-detail');
  await expect(detail.locator('.revision-meta')).toContainText(`parent #${ids[3]} (removed by garbage collection)`);
  // A revision whose parent is kept says nothing of gc.
  await rows.nth(0).click();
  await expect(detail.locator('.revision-meta')).toContainText(`parent #${ids[4]}`);
  await expect(detail.locator('.revision-meta')).not.toContainText('removed');
  // The head's "compare with the revision before" is there while that revision is.
  await expect(detail.getByRole('link', { name: `Compare #${ids[5]} with #${ids[4]}` })).toBeVisible();
});
