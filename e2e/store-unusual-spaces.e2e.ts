import { expect, openSignedIn, test } from './fixtures.js';
import { apply, freshNamespace, screen } from './store-helpers.js';

test('History and Documents: a plain space swapped for a no-break space is outlined and named', async ({ page }) => {
  const namespace = freshNamespace('spaces', 'nbsp');
  await apply(namespace, 'main', 'base', { 'config.yaml': 'name: billing api\nport: 8080\n' });
  const { revision } = await apply(namespace, 'main', 'pasted from a word processor', {
    'config.yaml': 'name: billing\u00a0api\nport: 8080\n',
  });
  await openSignedIn(page, screen('history', namespace, 'main', `&rev=${revision}`));
  await page.getByTestId('changes-list').getByText('config.yaml', { exact: true }).click();
  const added = page.getByTestId('diff-view').locator('mark.word-add abbr.unusual-space');
  await expect(added).toHaveAttribute('title', 'U+00A0 no-break space');
  // The character itself stays, so the line reads (and copies) as it is stored.
  await expect(added).toHaveText('\u00a0');
  await expect(page.getByTestId('diff-view').locator('mark.word-del abbr.unusual-space')).toHaveCount(0);

  await openSignedIn(page, screen('documents', namespace, 'main', '&key=config.yaml'));
  await expect(page.getByTestId('content-view').locator('abbr.unusual-space')).toHaveAttribute(
    'title',
    'U+00A0 no-break space',
  );
});
