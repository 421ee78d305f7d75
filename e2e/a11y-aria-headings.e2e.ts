import { apply, freshNamespace, screen } from './store-helpers.js';
import { expect, openSignedIn, test } from './fixtures.js';

test('History, Documents, Compare and Live traffic each have one level-one heading', async ({ page }) => {
  const namespace = freshNamespace('a11y', 'h1');
  await apply(namespace, 'main', 'one document', { 'a.txt': 'a\n' });
  const screens: readonly (readonly [string, string])[] = [
    [screen('history', namespace), 'History'],
    [screen('documents', namespace), 'Documents'],
    [screen('compare', namespace), 'Compare'],
    ['gateway/traffic', 'Live traffic'],
  ];
  for (const [path, title] of screens) {
    await openSignedIn(page, path);
    await expect(page.getByRole('heading', { name: title, level: 1, exact: true }), path).toBeAttached();
    await expect(page.getByRole('heading', { level: 1 }), path).toHaveCount(1);
  }
});
