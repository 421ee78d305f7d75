import { expect, openSignedIn, test } from './fixtures.js';
import { apply, freshNamespace, screen } from './store-helpers.js';

test('History: a change made only of invisible characters, line endings or the final newline shows what changed', async ({
  page,
}) => {
  const namespace = freshNamespace('s23', 'hidden');
  await apply(namespace, 'main', 'base', {
    'key.txt': 'api_key = abc\nname = prod\n',
    'crlf.txt': 'one\ntwo\nthree\n',
    'eof.txt': 'alpha\nbeta\n',
  });
  const { revision } = await apply(namespace, 'main', 'sneaky', {
    'key.txt': 'api_key = abc\u200b\nname = prod\n',
    'crlf.txt': 'one\r\ntwo\nthree 3\n',
    'eof.txt': 'alpha\nbeta',
  });
  await openSignedIn(page, screen('history', namespace, 'main', `&rev=${revision}`));
  const changes = page.getByTestId('changes-list');
  const diff = page.getByTestId('diff-view');

  await changes.getByText('key.txt', { exact: true }).click();
  const zeroWidth = diff.locator('mark.word-add abbr.invisible-char');
  await expect(zeroWidth).toHaveText('U+200B');
  await expect(zeroWidth).toHaveAttribute('title', 'U+200B zero width space');

  // The line ending is shown where it changed (line 1), alongside the change of content (line 3).
  await changes.getByText('crlf.txt', { exact: true }).click();
  await expect(diff.locator('mark.word-add abbr.invisible-char')).toHaveText('CR');
  await expect(diff.locator('mark.word-add', { hasText: '3' })).toBeVisible();
  await expect(page.getByTestId('changes-view')).not.toContainText('Only line endings');

  await changes.getByText('eof.txt', { exact: true }).click();
  await expect(diff.locator('mark.no-newline')).toHaveText('no newline at end');
  await expect(diff.locator('mark.no-newline')).toHaveAttribute('title', 'No newline at end of file');

  // Documents shows the same characters in the document itself.
  await openSignedIn(page, screen('documents', namespace, 'main', '&key=key.txt'));
  await expect(page.getByTestId('content-view').locator('abbr.invisible-char')).toHaveText('U+200B');
});
