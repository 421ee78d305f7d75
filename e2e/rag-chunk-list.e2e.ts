import { expect, gatewayAdmin, saveScreenshot, test } from './fixtures.js';
import { openCollection } from './rag-helpers.js';

/**
 * The chunk list is paged by the gateway (100 a time unless asked), so the Collections screen reads
 * chunks a page at a time: a large document no longer arrives as one answer of megabytes, and the
 * screen says how many there are and reads more when asked.
 */
test('collections: chunks show 100 at a time, with how many there are and a button for more', async ({ page }) => {
  const name = `paged-${Date.now()}`;
  expect((await gatewayAdmin('/internal/rag/collections', 'POST', { name })).status).toBe(201);
  // Paragraphs of about 500 characters never share a chunk (800 at most): one chunk each.
  const paragraph = (i: number): string =>
    `Paragraph ${i}. ${'Every paragraph holds its own long sentence. '.repeat(11)}`;
  const content = Array.from({ length: 230 }, (_, i) => paragraph(i)).join('\n\n');
  const ingested = await gatewayAdmin(`/internal/rag/collections/${name}/documents`, 'POST', {
    key: 'long.txt',
    content,
  });
  expect(((await ingested.json()) as { chunks: number }).chunks).toBe(230);

  await openCollection(page, name);
  const chunks = page.getByTestId('rag-chunks').getByRole('listitem');
  const more = page.getByTestId('rag-chunks-more');
  await expect(chunks).toHaveCount(100);
  await expect(more).toContainText('Showing 100 of 230 chunks');
  await more.scrollIntoViewIfNeeded();
  await saveScreenshot(page, 'rag-chunks-paged');

  await more.getByRole('button', { name: 'Show 100 more' }).click();
  await expect(chunks).toHaveCount(200);
  await expect(chunks.nth(100)).toBeFocused();
  await expect(chunks.nth(100)).toContainText('Paragraph 100.');
  await expect(more).toContainText('Showing 200 of 230 chunks');

  await more.getByRole('button', { name: 'Show 30 more' }).focus();
  await page.keyboard.press('Enter');
  await expect(chunks).toHaveCount(230);
  await expect(more).toHaveCount(0);
  // The button that asked is gone with the last page; focus is on the first chunk it brought.
  await expect(chunks.nth(200)).toBeFocused();
  await expect(chunks.last()).toContainText('Paragraph 229.');

  // One document's chunks page the same way, counted from that document.
  await page.getByTestId('rag-documents').getByRole('button', { name: 'Show chunks' }).click();
  await expect(page.getByRole('heading', { name: 'Chunks of the selected document' })).toBeVisible();
  await expect(chunks).toHaveCount(100);
  await expect(more).toContainText('Showing 100 of 230 chunks');
});
