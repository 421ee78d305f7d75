import { VisibleName } from '../../../components/diff/visible-text.js';
import { AlertIcon } from '../../../components/icons.js';

/** Names the documents that stop an action, found in its preview before anything is sent. */
export function ConflictList({ keys, text }: { readonly keys: readonly string[]; readonly text: string }) {
  return (
    <div className="notice notice-warning conflict-notice" role="alert" data-testid="action-conflicts">
      <AlertIcon />
      <div>
        <p>{text}</p>
        <ul className="conflict-keys">
          {keys.map((key) => (
            <li key={key} className="mono">
              <VisibleName text={key} />
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
