import { expect, openSignedIn, test } from './fixtures.js';
import { apply, freshNamespace, screen } from './store-helpers.js';

/**
 * "Hide whitespace changes" shows lines that differ only in whitespace as unchanged, says so when
 * that was the only change, and is remembered across a reload.
 */
test('diff: Hide whitespace changes, remembered, and a whitespace-only change said', async ({ page }) => {
  const namespace = freshNamespace('diff', 'whitespace');
  await apply(namespace, 'main', 'one', {
    'prompts/system.md': 'You are a helpful assistant.\nBe brief.\n',
    'prompts/faq.md': 'Answer:  yes\nPort: 80\n',
  });
  const second = await apply(namespace, 'main', 're-space', {
    'prompts/system.md': 'You are a  helpful assistant.  \nBe brief.\n',
    'prompts/faq.md': 'Answer: yes\nPort: 81\n',
  });
  await openSignedIn(page, screen('history', namespace, 'main', `&rev=${second.revision}&key=prompts/system.md`));

  const diff = page.getByRole('table', { name: 'Diff of prompts/system.md' });
  const hide = page.getByRole('checkbox', { name: 'Hide whitespace changes' });
  const status = page.getByTestId('diff-nav').getByRole('status');
  await expect(diff.locator('td.diff-del')).not.toHaveCount(0);
  await expect(status).toHaveText('1 change in Diff of prompts/system.md');
  await expect(hide).not.toBeChecked();

  await hide.check();
  await expect(diff.locator('td.diff-del')).toHaveCount(0);
  await expect(page.getByRole('note')).toContainText('Only whitespace changed in this document');
  await expect(status).toHaveText('No changes shown in Diff of prompts/system.md');

  await page.reload();
  await expect(page.getByRole('checkbox', { name: 'Hide whitespace changes' })).toBeChecked();
  await expect(page.getByRole('note')).toContainText('Only whitespace changed in this document');

  // The other document: its whitespace-only line is unchanged, its real change still shown.
  await page.getByRole('option', { name: 'prompts/faq.md, modified' }).click();
  const faq = page.getByRole('table', { name: 'Diff of prompts/faq.md' });
  await expect(faq.locator('td.diff-code.diff-del')).toHaveText([/Port: 80/]);
  await expect(page.getByRole('note')).toHaveCount(0);

  await page.getByRole('checkbox', { name: 'Hide whitespace changes' }).uncheck();
  await expect(faq.locator('td.diff-code.diff-del')).toHaveText([/Answer:/, /Port: 80/]);
});
