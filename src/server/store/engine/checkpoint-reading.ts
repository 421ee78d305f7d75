import { invalidError } from './errors.js';
import { storedCheckpointName, type EngineContext } from './selectors.js';

/**
 * A checkpoint name from a query string with a literal `+`, read both ways: form decoding makes every
 * `+` a space (`spaced`), while a client that did not encode it meant `+` (`plussed`). Names may hold
 * both characters, so `rc 1` and `rc+1` can both exist.
 */
export interface CheckpointReadings {
  readonly spaced: string;
  readonly plussed: string;
}

/**
 * The reading that names a checkpoint of the namespace: the one that exists, the form-decoded one when
 * neither does (its 404 follows), and 400 when both do, since answering either could read the state the
 * client did not mean.
 */
export function checkpointReading(ctx: EngineContext, namespaceName: string, readings: CheckpointReadings): string {
  const { spaced, plussed } = readings;
  const exists = (name: string) => checkpointExists(ctx, namespaceName, name);
  if (!exists(plussed)) return spaced;
  if (!exists(spaced)) return plussed;
  throw invalidError(
    `checkpoint ${JSON.stringify(plussed)} is ambiguous: the query's literal "+" reads as a space in form decoding, ` +
      `and checkpoints ${JSON.stringify(spaced)} and ${JSON.stringify(plussed)} both exist in namespace ` +
      `"${namespaceName}"; percent-encode it: %2B for "+" (checkpoint=${encodeURIComponent(plussed)}), ` +
      `%20 for a space (checkpoint=${encodeURIComponent(spaced)})`,
  );
}

/** Whether the namespace has a checkpoint of that name (as stored, or in NFC as new names are). */
export function checkpointExists(ctx: EngineContext, namespaceName: string, name: string): boolean {
  const namespace = ctx.repo.namespace(namespaceName);
  return (
    namespace !== undefined &&
    ctx.repo.checkpoint(namespace.id, storedCheckpointName(ctx.repo, namespace.id, name)) !== undefined
  );
}
