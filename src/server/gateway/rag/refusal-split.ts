/**
 * Levels of halving after which a call whose every part was refused, with nothing answered, is taken
 * for a model that refuses every text (a misconfigured model, a server answering 400 to everything)
 * rather than for texts each too long for it: 1 + 2 + 4 + 8 = 15 calls, not the 127 that halving 64
 * texts down to single ones takes. Once a model was found so, until it answers again, one halving
 * (3 calls) tells: a call with a refused text in each half is then given up with the rest.
 */
const LEVELS_BEFORE_GIVING_UP = 3;
const LEVELS_WHILE_REFUSING = 1;

/** What was learnt of the model: whether it refused every text of a whole call since it last answered. */
export interface RefusalRecord {
  refusesEverything: boolean;
}

/** A part of the texts being embedded, by where it starts among them. */
interface Part {
  readonly at: number;
  readonly texts: readonly string[];
}

/**
 * The vectors of `texts`, halving a call the upstream refuses for its inputs (`refuses`) level by
 * level until each refused text stands alone (null in its place), so only the texts refused on their
 * own go without a vector. When every part of a level was refused and nothing was answered, the model
 * is taken to refuse everything: the texts left get null, and `record` remembers it, so later calls
 * are halved only once, until the model answers one.
 */
export async function embedSplittingRefusals(
  model: string,
  texts: readonly string[],
  embed: (texts: readonly string[]) => Promise<Float32Array[]>,
  refuses: (error: unknown) => boolean,
  record: RefusalRecord,
  log: (message: string, error: unknown) => void,
): Promise<Array<Float32Array | null>> {
  const out: Array<Float32Array | null> = texts.map(() => null);
  let parts: Part[] = [{ at: 0, texts }];
  let answered = false;
  for (let level = 0; parts.length > 0; level += 1) {
    const refused: Array<Part & { readonly error: unknown }> = [];
    for (const part of parts) {
      try {
        const vectors = await embed(part.texts);
        vectors.forEach((vector, index) => (out[part.at + index] = vector));
        answered = true;
        record.refusesEverything = false;
      } catch (error) {
        if (!refuses(error)) throw error;
        refused.push({ ...part, error });
      }
    }
    const allRefused = !answered && refused.length === parts.length;
    if (allRefused && level >= (record.refusesEverything ? LEVELS_WHILE_REFUSING : LEVELS_BEFORE_GIVING_UP)) {
      if (!record.refusesEverything)
        log(
          `RAG: ${model} refused every part of ${texts.length} texts it was sent, as it would refuse any text; they and the rest of this run's texts it refuses whole are found by BM25 only`,
          refused[0]!.error,
        );
      record.refusesEverything = true;
      return out;
    }
    parts = [];
    for (const part of refused) {
      if (part.texts.length === 1) {
        log(`RAG: ${model} refused to embed a chunk; it is found by BM25 only`, part.error);
        continue;
      }
      const half = Math.ceil(part.texts.length / 2);
      parts.push(
        { at: part.at, texts: part.texts.slice(0, half) },
        { at: part.at + half, texts: part.texts.slice(half) },
      );
    }
  }
  return out;
}
