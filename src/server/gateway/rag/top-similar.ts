/** A chunk offered to the ranking: its similarity and where it comes in scan order (ties go to the earlier). */
interface Candidate {
  readonly id: number;
  readonly similarity: number;
  /** The collection's place among those searched, by name: chunks are offered by it, then by id. */
  readonly collectionOrder: number;
}

// NaN (a vector holding NaN) ranks below every number.
function key(similarity: number): number {
  return Number.isNaN(similarity) ? -Infinity : similarity;
}

/** Whether `a` ranks below `b`: less similar, or as similar and offered later. */
function ranksBelow(a: Candidate, b: Candidate): boolean {
  const difference = key(a.similarity) - key(b.similarity);
  if (difference !== 0 && !Number.isNaN(difference)) return difference < 0;
  return a.collectionOrder !== b.collectionOrder ? a.collectionOrder > b.collectionOrder : a.id > b.id;
}

/**
 * The `size` most similar chunks offered, kept in a heap with the weakest at its root: each offer is
 * one comparison when it does not make the cut and O(log size) when it does, so ranking n chunks is
 * O(n log size) with no array of n scores to sort. Ties keep the order chunks were offered in.
 */
export class TopSimilar {
  private readonly heap: Candidate[] = [];

  constructor(private readonly size: number) {}

  offer(id: number, similarity: number, collectionOrder: number): void {
    if (this.size <= 0) return;
    const candidate = { id, similarity, collectionOrder };
    const heap = this.heap;
    if (heap.length < this.size) {
      heap.push(candidate);
      this.siftUp(heap.length - 1);
    } else if (ranksBelow(heap[0]!, candidate)) {
      heap[0] = candidate;
      this.siftDown(0);
    }
  }

  /** The chunk ids kept, most similar first. */
  best(): number[] {
    return [...this.heap].sort((a, b) => (ranksBelow(a, b) ? 1 : -1)).map((entry) => entry.id);
  }

  private siftUp(at: number): void {
    const heap = this.heap;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!ranksBelow(heap[at]!, heap[parent]!)) return;
      [heap[at], heap[parent]] = [heap[parent]!, heap[at]!];
      at = parent;
    }
  }

  private siftDown(at: number): void {
    const heap = this.heap;
    for (;;) {
      const left = 2 * at + 1;
      const right = left + 1;
      let weakest = at;
      if (left < heap.length && ranksBelow(heap[left]!, heap[weakest]!)) weakest = left;
      if (right < heap.length && ranksBelow(heap[right]!, heap[weakest]!)) weakest = right;
      if (weakest === at) return;
      [heap[at], heap[weakest]] = [heap[weakest]!, heap[at]!];
      at = weakest;
    }
  }
}
