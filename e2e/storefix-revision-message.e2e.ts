import { expect, openSignedIn, test } from './fixtures.js';
import { apply, freshNamespace, screen } from './store-helpers.js';

test('a long multi-line revision message shows its first line as the title and the rest as a body', async ({
  page,
}) => {
  const namespace = freshNamespace('storefix', 'message');
  const long = 'Very long subject '.repeat(400).trim();
  const body = [
    'Why:',
    '- first reason',
    '- second reason',
    '',
    ...Array.from({ length: 40 }, (_, i) => `detail ${i}`),
  ];
  const written = await apply(namespace, 'main', `${long}\n\n${body.join('\n')}`, { 'a.txt': 'changed\n' });

  await openSignedIn(page, screen('history', namespace, 'main', `&rev=${written.revision}`));
  const detail = page.getByTestId('revision-detail');
  const title = detail.getByRole('heading', { level: 2 });
  await expect(title).toHaveText(long);
  // Clamped to a few lines: the diff stays in the window.
  expect((await title.boundingBox())!.height).toBeLessThan(100);
  await expect(page.getByTestId('diff-view')).toBeInViewport();

  const bodyText = detail.getByTestId('revision-body');
  // Line breaks kept, not flattened into one run of text.
  expect(await bodyText.evaluate((element) => element.innerText.split('\n').slice(0, 3))).toEqual([
    'Why:',
    '- first reason',
    '- second reason',
  ]);
  const more = detail.getByRole('button', { name: 'Show more' });
  await expect(more).toHaveAttribute('aria-expanded', 'false');
  await more.click();
  await expect(detail.getByRole('button', { name: 'Show less' })).toHaveAttribute('aria-expanded', 'true');
  expect((await title.boundingBox())!.height).toBeGreaterThan(100);

  // The log row shows the first line only.
  const row = page.getByTestId('log-row').first();
  await expect(row.locator('.log-row-message')).toHaveText(long);
  await expect(row).not.toContainText('first reason');
});
