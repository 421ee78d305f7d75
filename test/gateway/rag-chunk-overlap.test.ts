import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * Each chunk begins with the end of the one before, so an answer that straddles a boundary is found in
 * one chunk. Only whole segments were carried, and a paragraph of ordinary prose is longer than the
 * overlap: with the default sizes, thirty paragraphs of about 400 characters made thirty chunks and
 * not one boundary overlapped.
 */
const TOPICS = ['travel', 'expenses', 'badges', 'parking', 'holidays', 'laptops'];
const paragraph = (index: number): string =>
  [
    `Section ${index} covers the ${TOPICS[index % TOPICS.length]} rules that apply to every office of the company and to its branches abroad.`,
    `Requests under section ${index} are filed in the portal and approved by the team lead within one working week.`,
    `Exceptions to section ${index} need a written reason and the agreement of the people team in advance.`,
    `The owner of section ${index} reviews it each spring and publishes changes on the intranet page.`,
  ].join(' ');

describe('chunk overlap with the default sizes', () => {
  let h: GatewayHarness;
  beforeAll(async () => {
    h = await startGatewayHarness();
    await h.admin('POST', '/internal/rag/collections', { name: 'policies' });
  });
  afterAll(() => h.close());

  it('starts every chunk of ordinary prose with the end of the one before', async () => {
    const paragraphs = Array.from({ length: 30 }, (_, index) => paragraph(index));
    expect(paragraphs.every((text) => text.length > 390 && text.length < 420)).toBe(true);
    const added = await h.admin('POST', '/internal/rag/collections/policies/documents', {
      key: 'policies.txt',
      content: paragraphs.join('\n\n'),
    });
    expect(added.status).toBe(201);
    const chunks = (await h.admin('GET', '/internal/rag/collections/policies/chunks?limit=1000')).body.data as Array<{
      text: string;
    }>;
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.every((chunk) => chunk.text.length <= 800)).toBe(true);
    for (let index = 1; index < chunks.length; index += 1) {
      const [before, after] = [chunks[index - 1]!.text, chunks[index]!.text];
      // The carried end is the previous chunk's last sentences: some text, up to 150 characters.
      const carried = after.slice(0, after.indexOf('\n\n'));
      expect(carried.length, `chunk ${index}`).toBeGreaterThan(0);
      expect(carried.length, `chunk ${index}`).toBeLessThanOrEqual(150);
      expect(before.endsWith(carried), `chunk ${index} begins with the end of chunk ${index - 1}`).toBe(true);
      // A whole sentence, not a cut word.
      expect(carried, `chunk ${index}`).toMatch(/^The owner of section \d+ reviews it each spring/);
    }
    // Every paragraph is in some chunk whole.
    const all = chunks.map((chunk) => chunk.text).join('\n');
    for (const text of paragraphs) expect(all).toContain(text);
  });

  it('finds an answer that straddles a boundary in one chunk', async () => {
    // The end of section 7 and the start of section 8, asked as one question.
    const search = await h.admin('POST', '/internal/rag/search', {
      query: 'section 7 owner reviews each spring; section 8 covers holidays rules',
      collections: ['policies'],
    });
    const both = (search.body.hits as Array<{ text: string }>).filter(
      (hit) => hit.text.includes('The owner of section 7 reviews') && hit.text.includes('Section 8 covers'),
    );
    expect(both).toHaveLength(1);
  });
});
