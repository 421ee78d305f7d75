import { expect, gatewayAdmin, test } from './fixtures.js';
import { openCollection } from './rag-helpers.js';

/**
 * A chunk's text scrolls in its own frame once it is taller than 240 px, so it must be reachable from
 * the keyboard to be read there: each text is a named region in the tab order, in the collection's
 * chunk list and in the search hits alike (as the traffic drawer's bodies are).
 */
test('collections: chunk and search hit texts are named regions the keyboard reaches', async ({ page }) => {
  const name = `focus-${Date.now()}`;
  expect((await gatewayAdmin('/internal/rag/collections', 'POST', { name })).status).toBe(201);
  // One line a sentence: a chunk of up to 800 characters is then far taller than its 240 px frame.
  const content = Array.from({ length: 30 }, (_, i) => `Line ${i} of the rota.`).join('\n');
  const ingested = await gatewayAdmin(`/internal/rag/collections/${name}/documents`, 'POST', {
    key: 'rota.txt',
    content,
  });
  expect(ingested.ok).toBe(true);

  await openCollection(page, name);
  const chunks = page.getByTestId('rag-chunks');
  const text = chunks.getByRole('region', { name: 'Chunk 1 text' });
  await expect(text).toContainText('Line 0 of the rota.');
  // It really scrolls, which is what makes keyboard access necessary.
  expect(await text.evaluate((element) => element.scrollHeight > element.clientHeight)).toBe(true);
  // From its chunk, Tab goes into the text, and the arrow keys then scroll it.
  await chunks.getByRole('listitem').first().focus();
  await page.keyboard.press('Tab');
  await expect(text).toBeFocused();
  await page.keyboard.press('PageDown');
  await expect.poll(() => text.evaluate((element) => element.scrollTop)).toBeGreaterThan(0);

  const search = page.getByTestId('rag-search');
  await search.getByLabel('Question').fill('rota');
  await search.getByRole('button', { name: 'Search' }).click();
  const hit = search.getByRole('region', { name: 'Hit 1 text' });
  await expect(hit).toContainText('Line 0 of the rota.');
  await hit.focus();
  await expect(hit).toBeFocused();
});
