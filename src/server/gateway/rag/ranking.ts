/** The constant of reciprocal rank fusion (Cormack et al. 2009): damps the weight of the very top ranks. */
export const RRF_K = 60;

/** A fused result: the chunk, its fused score and its rank (1-based) in each list it appeared in. */
export interface Fused {
  readonly id: number;
  readonly score: number;
  readonly bm25Rank: number | null;
  readonly vectorRank: number | null;
}

/**
 * Reciprocal rank fusion of the BM25 and vector rankings (best first): score = sum of 1 / (k + rank).
 * It needs no score calibration between BM25 and cosine, which live on unrelated scales.
 */
export function fuseRankings(bm25: readonly number[], vector: readonly number[]): Fused[] {
  const byId = new Map<number, { score: number; bm25Rank: number | null; vectorRank: number | null }>();
  const add = (ids: readonly number[], field: 'bm25Rank' | 'vectorRank'): void => {
    ids.forEach((id, index) => {
      const entry = byId.get(id) ?? { score: 0, bm25Rank: null, vectorRank: null };
      entry.score += 1 / (RRF_K + index + 1);
      entry[field] = index + 1;
      byId.set(id, entry);
    });
  };
  add(bm25, 'bm25Rank');
  add(vector, 'vectorRank');
  return [...byId.entries()]
    .map(([id, entry]) => ({ id, ...entry }))
    .sort((a, b) => b.score - a.score || (a.bm25Rank ?? Infinity) - (b.bm25Rank ?? Infinity) || a.id - b.id);
}

// Words too common to say anything about a passage; left out of the BM25 query.
const STOPWORDS = new Set(
  (
    'a an and are as at be by can do does for from has have how i in is it its me my of on or our ' +
    'should that the their there this to was we what when where which who why will with you your'
  ).split(' '),
);

/**
 * An FTS5 query from free text: its words, quoted (so no FTS5 syntax of the caller's is interpreted),
 * joined with OR so that BM25 ranks by how many and how rare the matched words are. Empty when the
 * text has no searchable word.
 */
export function ftsQuery(text: string): string {
  const words = new Set<string>();
  for (const match of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = match[0];
    // Single letters say nothing; single digits may (a version, a section number).
    if ((word.length < 2 && !/\d/.test(word)) || STOPWORDS.has(word)) continue;
    words.add(word);
    if (words.size >= 64) break;
  }
  return [...words].map((word) => `"${word}"`).join(' OR ');
}
