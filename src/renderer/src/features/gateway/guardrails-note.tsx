import type { GuardrailsOutcome } from '../../../../shared/guardrails-api.js';
import { Badge } from '../../components/badge.js';
import { formatInt } from '../../lib/format.js';

/** What the PII stage did to a request: its mode and the entities found by type (never a value). */
export function PiiNote({ outcome }: { readonly outcome: GuardrailsOutcome | null | undefined }) {
  if (!outcome?.pii_mode) return <span className="muted">off</span>;
  const entities = Object.entries(outcome.pii_entities ?? {});
  return (
    <span className="guardrails-note" data-testid="pii-note">
      <span>{outcome.pii_mode}</span>
      {entities.length === 0 ? (
        <span className="muted">nothing found</span>
      ) : (
        entities.map(([type, count]) => (
          <Badge key={type}>
            {type} ×{count}
          </Badge>
        ))
      )}
    </span>
  );
}

/**
 * What the content policy decided, with the input tokens when it counted them, and the answer it
 * stopped (the pattern and where, never the text).
 */
export function PolicyNote({ outcome }: { readonly outcome: GuardrailsOutcome | null | undefined }) {
  const decision = outcome?.content_policy;
  const stopped = outcome?.answer_stopped;
  if (decision === undefined && stopped === undefined) return <span className="muted">off</span>;
  const tokens = outcome?.input_tokens !== undefined ? ` · ${formatInt(outcome.input_tokens)} input tokens` : '';
  return (
    <span data-testid="policy-note">
      {decision}
      {tokens}
      {stopped !== undefined && (
        <span data-testid="policy-answer-stopped">
          {decision === undefined ? 'answer stopped: ' : ' · answer stopped: '}
          {stopped.reason}
        </span>
      )}
    </span>
  );
}
