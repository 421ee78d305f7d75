import type { UseQueryResult } from '@tanstack/react-query';
import type { ApiKeyList } from '../../../../shared/gateway-api.js';
import { updateSearch } from '../../app/router.js';
import { Button } from '../../components/button.js';
import { EmptyState } from '../../components/feedback.js';
import { KeyIcon, PlusIcon } from '../../components/icons.js';
import { QueryView } from '../../components/query-view.js';
import { plural } from '../../lib/format.js';

/** The Keys screen before any key was issued. */
export function NoKeysYet({ onIssue }: { readonly onIssue: () => void }) {
  return (
    <EmptyState
      icon={<KeyIcon size={28} />}
      title="No keys yet"
      action={
        <Button variant="primary" icon={<PlusIcon />} onClick={onIssue}>
          Issue the first key
        </Button>
      }
    >
      Issue one key per app or person: each has its own scopes, model list, limits and budgets, and its traffic and
      usage are tracked separately.
    </EmptyState>
  );
}

/**
 * No active key: whether any was issued and revoked decides between "no keys yet" and "none active",
 * so neither is said before the list with the revoked ones has answered.
 */
export function NoActiveKeys({
  withRevoked,
  onIssue,
}: {
  readonly withRevoked: UseQueryResult<ApiKeyList>;
  readonly onIssue: () => void;
}) {
  return (
    <QueryView query={withRevoked} errorTitle="Could not load the revoked keys">
      {(data) =>
        data.data.length === 0 ? (
          <NoKeysYet onIssue={onIssue} />
        ) : (
          <EmptyState
            icon={<KeyIcon size={28} />}
            title="No active keys"
            action={
              <>
                <Button variant="primary" icon={<PlusIcon />} onClick={onIssue}>
                  Issue a key
                </Button>
                <Button variant="secondary" onClick={() => updateSearch({ revoked: '1' })}>
                  Show revoked
                </Button>
              </>
            }
          >
            Every key issued so far has been revoked ({plural(data.data.length, 'key')}).
          </EmptyState>
        )
      }
    </QueryView>
  );
}
