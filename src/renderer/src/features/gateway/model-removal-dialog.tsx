import type { ApiKeyRecord } from '../../../../shared/gateway-api.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import type { ModelDependants } from './model-removal-dependants.js';
import { NEW_MODEL_FIELD_ID } from './model-settings-form.js';

/** Names as a list in a sentence: `'a', 'b' and 'c'`. */
function listed(names: readonly string[]): string {
  const quoted = names.map((name) => `"${name}"`);
  return quoted.length <= 1 ? (quoted[0] ?? '') : `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}`;
}

/** One line of what uses the model and what becomes of it. */
function consequences(model: string, found: ModelDependants): string[] {
  const lines: string[] = [];
  if (found.aliases.length > 0)
    lines.push(
      `${found.aliases.length === 1 ? 'Alias' : 'Aliases'} ${listed(found.aliases)} ${found.aliases.length === 1 ? 'routes' : 'route'} to it and ${found.aliases.length === 1 ? 'is' : 'are'} removed with it: clients sending ${found.aliases.length === 1 ? 'it' : 'them'} are refused (model_not_allowed).`,
    );
  if (found.defaultEmbedding)
    lines.push('It is the default embedding model: the default is cleared, so embeddings requests must name a model.');
  if (found.deployments.length > 0)
    lines.push(
      `${found.deployments.length === 1 ? 'Deployment' : 'Deployments'} ${listed(found.deployments)} ${found.deployments.length === 1 ? 'stays' : 'stay'} but ${found.deployments.length === 1 ? 'gets' : 'get'} no traffic until "${model}" is allowed again.`,
    );
  for (const key of found.keys)
    lines.push(
      `API key "${key.name}"${key.owner ? ` (${key.owner})` : ''} is limited to it: its list stays, but ${key.onlyThese ? 'it can then call no model at all' : 'it is refused this model'} until "${model}" is allowed again.`,
    );
  if (found.limits)
    lines.push('Its shared limits stay in the configuration file and apply again if it is allowed again.');
  if (found.cap !== undefined) lines.push(`Its max_tokens cap (${found.cap}) is dropped.`);
  if (found.priced) lines.push('Its price stays, and prices it again if it is allowed again.');
  return lines;
}

/**
 * Asks before removing an allowed model, listing what uses it (aliases, the default embedding model,
 * deployments, keys, limits, cap, price) and what becomes of each. The change is in the draft until Save.
 */
export function ModelRemovalDialog({
  model,
  dependants,
  keys,
  onConfirm,
  onClose,
}: {
  readonly model: string;
  readonly dependants: ModelDependants;
  /** The keys query: while it runs or when it failed, the dialog says the keys are not listed. */
  readonly keys: { readonly isPending: boolean; readonly isError: boolean; readonly data?: { data: ApiKeyRecord[] } };
  readonly onConfirm: () => void;
  readonly onClose: () => void;
}) {
  const lines = consequences(model, dependants);
  const keysNote = keys.isError
    ? 'The API keys could not be read: keys limited to it are not listed.'
    : keys.isPending
      ? 'Reading the API keys…'
      : undefined;
  return (
    <ConfirmDialog
      testId="remove-model-dialog"
      title={`Remove "${model}" from the allowed models?`}
      description="Requests for it are refused (model_not_allowed) once the change is saved."
      confirmLabel={`Remove ${model}`}
      onConfirm={onConfirm}
      onClose={onClose}
      // Its Remove button is gone once the model is: focus goes to the field that allows models.
      returnFocus={() => document.getElementById(NEW_MODEL_FIELD_ID)}
    >
      {lines.length > 0 ? (
        <ul data-testid="remove-model-dependants">
          {lines.map((line, index) => (
            <li key={index}>{line}</li>
          ))}
        </ul>
      ) : (
        <p data-testid="remove-model-dependants">Nothing else uses it.</p>
      )}
      {keysNote && <p className="muted">{keysNote}</p>}
    </ConfirmDialog>
  );
}
