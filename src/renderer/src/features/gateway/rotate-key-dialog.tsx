import { useState } from 'react';
import type { ApiKeyCreated, ApiKeyRecord } from '../../../../shared/gateway-api.js';
import { useRotateKey } from '../../api/gateway-queries.js';
import { FormDialog } from '../../components/dialog.js';
import { Field, Select } from '../../components/field.js';

/** How long the old secret keeps working: at once for a leaked one, longer to move clients over without an outage. */
const GRACE_CHOICES = [
  { seconds: 0, label: 'Stops now' },
  { seconds: 3600, label: 'Works 1 more hour' },
  { seconds: 86_400, label: 'Works 24 more hours' },
  { seconds: 7 * 86_400, label: 'Works 7 more days' },
] as const;

/**
 * Replaces a key's secret. The key keeps its id, settings, limits and usage, so nothing but the
 * clients holding the secret needs to change; the new secret is shown once, as for a new key.
 */
export function RotateKeyDialog({
  apiKey,
  onClose,
  onRotated,
}: {
  readonly apiKey: ApiKeyRecord;
  readonly onClose: () => void;
  /** Gets the new secret when the gateway answers, also when the dialog was closed meanwhile. */
  readonly onRotated: (rotated: ApiKeyCreated) => void;
}) {
  const [graceSeconds, setGraceSeconds] = useState(0);
  const rotate = useRotateKey(onRotated);
  return (
    <FormDialog
      testId="rotate-key-dialog"
      title={`Rotate the secret of “${apiKey.name ?? apiKey.key_prefix}”?`}
      description="A new secret replaces the current one. The key keeps its id, scopes, limits and usage; only the clients that hold the secret need the new one."
      onClose={onClose}
      onSubmit={() => rotate.mutate({ id: apiKey.id, graceSeconds })}
      busy={rotate.isPending}
      layout="stack"
      confirmLabel="Rotate secret"
      confirmTestId="confirm-rotate-key"
      request={rotate}
      errorTitle="Could not rotate the key"
    >
      <Field
        label="The current secret"
        htmlFor="rotate-grace"
        hint="Stop it now if it leaked. Otherwise let it work a while, until every client has the new one."
      >
        <Select
          id="rotate-grace"
          value={graceSeconds}
          onChange={(event) => setGraceSeconds(Number(event.target.value))}
        >
          {GRACE_CHOICES.map((choice) => (
            <option key={choice.seconds} value={choice.seconds}>
              {choice.label}
            </option>
          ))}
        </Select>
      </Field>
    </FormDialog>
  );
}
