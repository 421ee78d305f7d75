import { expect, openSignedIn, storeCall, test } from './fixtures.js';
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

test('Branches and Checkpoints: a namespace of more than one store page (1,000) of each lists them all, the current branch too', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const namespace = freshNamespace('s23', 'pages');
  await apply(namespace, 'main', 'base', { 'a.txt': 'a' });
  // Named to sort before `main`, so the current branch is the one past the first page.
  const names = Array.from({ length: 1001 }, (_, i) => `a${String(i).padStart(4, '0')}`);
  const workers = 4;
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      for (let i = worker; i < names.length; i += workers) {
        const scope = { namespace, branch: 'main' };
        await storeCall('/v1/branches', { scope, name: names[i] });
        await storeCall('/v1/checkpoints', { scope, name: `cp-${names[i]}`, description: '' });
      }
    }),
  );

  await openSignedIn(page, screen('branches', namespace));
  // Their rows open a branch or checkpoint: a grid, whose highlighted row a screen reader hears.
  const rows = page.getByRole('grid').getByRole('row');
  await expect(rows).toHaveCount(1 + 1002);
  await expect(page.getByRole('row', { name: /^main current/ })).toBeVisible();
  await expect(page.getByRole('link', { name: 'a1000', exact: true })).toHaveCount(1);
  await expect(page.getByLabel('Branch', { exact: true }).locator('option', { hasText: /^a1000$/ })).toHaveCount(1);

  await openSignedIn(page, screen('checkpoints', namespace));
  await expect(rows).toHaveCount(1 + 1001);
  await expect(page.getByRole('link', { name: 'cp-a1000', exact: true })).toHaveCount(1);
});

test('History and Documents: a branch the namespace does not have is named as missing, with the branches it has', async ({
  page,
}) => {
  const namespace = freshNamespace('s23', 'typo');
  await apply(namespace, 'main', 'base', { 'a.txt': 'a' });
  await apply(namespace, 'canary', 'canary', { 'a.txt': 'b' });

  await openSignedIn(page, screen('history', namespace, 'mian'));
  await expect(page.getByText(`No branch “mian” in ${namespace}`)).toBeVisible();
  await expect(page.getByText('No revisions on')).toHaveCount(0);
  const offered = page.getByRole('list', { name: `Branches of ${namespace}` });
  await expect(offered.getByRole('link')).toHaveText(['main', 'canary']);
  await offered.getByRole('link', { name: 'main' }).click();
  await expect(page).toHaveURL(/\/store\/history\?.*branch=main/);
  await expect(page.getByTestId('log-list')).toContainText('base');

  await openSignedIn(page, screen('documents', namespace, 'mian'));
  await expect(page.getByText(`No branch “mian” in ${namespace}`)).toBeVisible();
  await page
    .getByRole('list', { name: `Branches of ${namespace}` })
    .getByRole('link', { name: 'canary' })
    .click();
  await expect(page).toHaveURL(/\/store\/documents\?.*branch=canary/);

  // A namespace with nothing written still gets the first command to paste.
  const empty = freshNamespace('s23', 'empty');
  await openSignedIn(page, screen('history', empty, 'main'));
  await expect(page.getByText(`"namespace":"${empty}"`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Copy command' })).toBeVisible();
});

test('History: a link to a revision older than the first page of the log shows it selected, and j goes on from it', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const namespace = freshNamespace('s23', 'deep-link');
  // More than two pages of the log (100 entries each), so revision 3 is on the third.
  for (let i = 1; i <= 230; i++) await apply(namespace, 'main', `edit ${i}`, { 'a.txt': `version ${i}` });

  await openSignedIn(page, screen('history', namespace, 'main', '&rev=3'));
  const selected = page.getByTestId('log-list').getByRole('option', { selected: true });
  await expect(selected).toContainText('edit 3');
  await expect(selected).toBeInViewport();
  await page.getByTestId('log-list').focus();
  await page.keyboard.press('j');
  await expect(page).toHaveURL(/[?&]rev=2(&|$)/);
  await expect(selected).toContainText('edit 2');

  // End from the head goes to the oldest revision in one press, reading the pages not read yet.
  await openSignedIn(page, screen('history', namespace, 'main'));
  await expect(selected).toContainText('edit 230');
  await page.getByTestId('log-list').focus();
  await page.keyboard.press('End');
  await expect(page).toHaveURL(/[?&]rev=1(&|$)/);
  await expect(selected).toContainText('edit 1');
  await expect(selected).toBeInViewport();

  // A revision of another branch is not chased through the whole log: it is shown as such.
  const other = await apply(namespace, 'side', 'side', { 'b.txt': 'b' });
  await openSignedIn(page, screen('history', namespace, 'main', `&rev=${other.revision}`));
  await expect(page.getByTestId('revision-detail')).toContainText('side');
  await expect(page.getByTestId('log-list').getByRole('option')).not.toHaveCount(0);
});

test('Checkpoints: a long name wraps beside its icon, which keeps its size', async ({ page }) => {
  const namespace = freshNamespace('s23', 'long-names');
  await apply(namespace, 'main', 'base', { 'a.txt': 'a' });
  const name = 'release candidate for the spring launch of the new pricing page and its translations';
  await storeCall('/v1/checkpoints', { scope: { namespace, branch: 'main' }, name, description: 'long' });
  await page.setViewportSize({ width: 1024, height: 768 });
  await openSignedIn(page, screen('checkpoints', namespace));
  const cell = page.getByRole('row', { name: new RegExp(name) }).locator('.cell-title');
  const link = cell.getByRole('link', { name });
  await expect(link).toBeVisible();
  const [icon, text] = await Promise.all([cell.locator('svg').boundingBox(), link.boundingBox()]);
  // The name wraps onto several lines, and the icon is still 14 px wide.
  expect(text!.height).toBeGreaterThan(30);
  expect(icon!.width).toBeCloseTo(14, 0);
});

test('Documents and History: a blank line is empty, so text copied from the page is the document as stored', async ({
  page,
}) => {
  const namespace = freshNamespace('s23', 'blank');
  await apply(namespace, 'main', 'base', { 'conf.yaml': 'a: 1\n\nb: 2\n' });
  const { revision } = await apply(namespace, 'main', 'change', { 'conf.yaml': 'a: 1\n\nb: 3\n' });

  await openSignedIn(page, screen('documents', namespace, 'main', '&key=conf.yaml'));
  const content = page.getByTestId('content-view');
  await expect(content.locator('td.diff-code')).toHaveText(['a: 1', '', 'b: 3']);
  // Still a line's height on screen, with nothing in it.
  const blank = content.locator('tr.diff-row').nth(1);
  expect((await blank.boundingBox())!.height).toBeGreaterThanOrEqual(19);
  // What a selection dragged over the whole table copies (the e2e project has no DOM types).
  const copied = await content.evaluate((table) => {
    const page = globalThis as unknown as {
      getSelection(): { selectAllChildren(node: unknown): void; toString(): string };
    };
    const selection = page.getSelection();
    selection.selectAllChildren(table);
    return selection.toString();
  });
  expect(copied).not.toContain('\u200b');

  await openSignedIn(page, screen('history', namespace, 'main', `&rev=${revision}`));
  await page.getByTestId('changes-list').getByText('conf.yaml', { exact: true }).click();
  const codes = await page.getByTestId('diff-view').locator('td.diff-code').allTextContents();
  expect(codes).toContain('');
  expect(codes.join('')).not.toContain('\u200b');
});
