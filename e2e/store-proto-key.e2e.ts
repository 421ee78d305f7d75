import { expect, openSignedIn, test } from './fixtures.js';
import { apply, freshNamespace, screen } from './store-helpers.js';

test('Documents: a document named "__proto__" is listed and opens like any other, also after the branch moves on', async ({
  page,
}) => {
  const namespace = freshNamespace('keys', 'proto');
  // Computed: a literal __proto__ key would set the object's prototype instead.
  await apply(namespace, 'main', 'odd names', { ['__proto__']: 'kept as a document', 'notes.txt': 'plain' });
  await openSignedIn(page, screen('documents', namespace, 'main', '&key=__proto__'));
  await expect(page.getByTestId('state-summary')).toContainText('2 documents');
  await expect(page.getByTestId('content-view')).toContainText('kept as a document');

  // A write while the screen is open: the refreshed state keeps it too.
  await apply(namespace, 'main', 'more', { 'later.txt': 'new' });
  await expect(page.getByTestId('state-summary')).toContainText('3 documents');
  await expect(page.getByTestId('content-view')).toContainText('kept as a document');
});
