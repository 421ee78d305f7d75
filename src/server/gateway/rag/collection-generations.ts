/**
 * Per collection, a number bumped when it is deleted or changes its source. A name can be deleted and
 * made again (with other readers) while a document is being embedded for the old one; comparing
 * generations keeps that document out of the new collection.
 */
export class CollectionGenerations {
  private readonly generations = new Map<string, number>();

  /** The collection's generation now. */
  current(name: string): number | undefined {
    return this.generations.get(name);
  }

  /** Starts a new generation: documents chunked for the last one are not stored. */
  next(name: string): void {
    this.generations.set(name, (this.generations.get(name) ?? 0) + 1);
  }
}
