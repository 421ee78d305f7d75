import type { PiiEntityType } from '../../../shared/guardrails-api.js';
import { DETECTORS, findEntities } from '../guardrails/pii/detectors.js';
import { PiiScrubber } from '../guardrails/pii/pii-scrubber.js';

/** Retrieved texts with their PII replaced, and how many entities of each type were found. */
export interface RedactedTexts {
  readonly texts: string[];
  readonly counts: ReadonlyMap<PiiEntityType, number>;
}

/**
 * Redacts PII in retrieved chunks with the PII module's detectors (every entity type), irreversibly:
 * the scrubber keeps no originals, so no placeholder of a retrieved value can ever be restored into an
 * answer. One scrubber per request, so a value gets the same placeholder in every chunk; placeholders
 * the request already holds (`reserved`, from the PII stage's own scrubbing) are never reused, so the
 * PII restore stage cannot mistake a retrieved placeholder for one of the caller's own values.
 */
export function redactRetrievedTexts(texts: readonly string[], reserved: ReadonlySet<string>): RedactedTexts {
  const scrubber = new PiiScrubber(false, reserved);
  const counts = new Map<PiiEntityType, number>();
  const out = texts.map((text) => {
    const found = findEntities(text, DETECTORS);
    for (const entity of found) counts.set(entity.type, (counts.get(entity.type) ?? 0) + 1);
    return found.length === 0 ? text : scrubber.scrub(text, found);
  });
  return { texts: out, counts };
}
