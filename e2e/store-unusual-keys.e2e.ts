import { expect, openSignedIn, test } from './fixtures.js';
import { apply, freshNamespace, screen } from './store-helpers.js';

/**
 * Keys the store accepts but a browser draws misleadingly: a right-to-left override that shows
 * "\u202Eevil.txt" as "txt.live", a trailing space that vanishes, a line break drawn as a space, a
 * no-break space that looks like a plain one.
 */
const KEYS = {
  override: '\u202Eevil.txt',
  plain: 'trailing space',
  trailing: 'trailing space ',
  newline: 'new\nline',
  noBreak: 'no\u00a0break.txt',
};

test('History and Documents show invisible and bidirectional characters in keys as named boxes', async ({ page }) => {
  const namespace = freshNamespace('keys', 'unusual');
  const { revision } = await apply(
    namespace,
    'main',
    'odd keys',
    Object.fromEntries(Object.values(KEYS).map((key) => [key, `content of ${JSON.stringify(key)}\n`])),
  );

  await openSignedIn(page, screen('history', namespace, 'main', `&rev=${revision}`));
  const changed = page.getByRole('listbox', { name: 'Changed documents' });
  // Each key is named with its hidden characters spelled out, so names that look alike read apart.
  const override = changed.getByRole('option', { name: '[U+202E]evil.txt, created', exact: true });
  await expect(override.locator('abbr.invisible-char')).toHaveText('U+202E');
  await expect(override.locator('abbr.invisible-char')).toHaveAttribute('title', 'U+202E right-to-left override');
  await expect(changed.getByRole('option', { name: 'trailing space, created', exact: true })).toHaveCount(1);
  const trailing = changed.getByRole('option', { name: 'trailing space[U+0020], created', exact: true });
  await expect(trailing.locator('abbr.unusual-space')).toHaveAttribute('title', 'U+0020 space');
  // The box has the width of the space it stands for: it is drawn, not collapsed away.
  expect((await trailing.locator('abbr.unusual-space').boundingBox())?.width).toBeGreaterThan(2);
  const newline = changed.getByRole('option', { name: 'new[LF]line, created', exact: true });
  await expect(newline.locator('abbr.invisible-char')).toHaveText('LF');
  const noBreak = changed.getByRole('option', { name: 'no[U+00A0]break.txt, created', exact: true });
  await expect(noBreak.locator('abbr.unusual-space')).toHaveAttribute('title', 'U+00A0 no-break space');

  // The diff's header and the table's name, for the document chosen.
  await override.click();
  await expect(page.getByTestId('diff-key').locator('abbr.invisible-char')).toHaveText('U+202E');
  await expect(page.getByRole('table', { name: 'Diff of [U+202E]evil.txt' })).toContainText('content of');
  await trailing.click();
  await expect(page.getByTestId('diff-key').locator('abbr.unusual-space')).toHaveCount(1);
  await expect(page.getByRole('table', { name: 'Diff of trailing space[U+0020]', exact: true })).toBeVisible();
  // The log row's changed keys, too.
  const row = page.getByRole('listbox', { name: 'Revisions' }).getByRole('option', { name: /^odd keys/ });
  await expect(row.locator('abbr.invisible-char').first()).toHaveText('LF');

  await openSignedIn(page, screen('documents', namespace));
  const documents = page.getByRole('listbox', { name: 'Documents' });
  await expect(documents.getByRole('option', { name: '[U+202E]evil.txt', exact: true })).toBeVisible();
  await expect(documents.getByRole('option', { name: 'trailing space', exact: true })).toHaveCount(1);
  await documents.getByRole('option', { name: 'trailing space[U+0020]', exact: true }).click();
  await expect(page.getByTestId('document-key').locator('abbr.unusual-space')).toHaveAttribute('title', 'U+0020 space');
  await expect(page.getByRole('table', { name: 'Content of trailing space[U+0020]', exact: true })).toContainText(
    'content of "trailing space "',
  );
  await documents.getByRole('option', { name: 'new[LF]line', exact: true }).click();
  await expect(page.getByTestId('document-key').locator('abbr.invisible-char')).toHaveText('LF');
  await expect(page.getByRole('link', { name: 'History of new[LF]line' })).toBeVisible();
});
