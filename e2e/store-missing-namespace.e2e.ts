import { expect, openSignedIn, test } from './fixtures.js';
import { apply, freshNamespace, screen } from './store-helpers.js';

/**
 * A namespace the store does not have (the `default` the screens start on before anything was
 * written, a remembered one, a typo) is named as missing with the namespaces the store has, not
 * shown as an empty branch waiting for its first write while the documents are elsewhere.
 */
test('history of a namespace the store lacks names it and offers the namespaces there are', async ({ page }) => {
  const written = freshNamespace('missing-ns', 'written');
  const absent = freshNamespace('missing-ns', 'absent');
  await apply(written, 'main', 'Written from a terminal', { 'prompt.txt': 'hello' });

  await openSignedIn(page, screen('history', absent));
  await expect(page.getByText(`No namespace “${absent}” in the store`)).toBeVisible();
  await expect(page.getByText(`No revisions on ${absent}`)).toHaveCount(0);
  const offered = page.getByRole('list', { name: 'Namespaces of the store' });
  // The newest first: the one just written is there whatever else the store holds.
  await expect(offered.getByRole('link').first()).toHaveText(written);
  // Writing to it is still how a namespace starts.
  await expect(page.getByText(`"namespace":"${absent}"`)).toBeVisible();

  await offered.getByRole('link', { name: written }).click();
  await expect(page.getByTestId('log-row')).toHaveCount(1);
  await expect(page).toHaveURL(new RegExp(`ns=${encodeURIComponent(written).replace(/%2F/g, '(%2F|/)')}`));
  await expect(page.getByTestId('namespace-picker')).toHaveValue(written);
});
