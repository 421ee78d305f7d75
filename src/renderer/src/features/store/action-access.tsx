import type { ReactNode } from 'react';
import { useStoreAccess, type StoreAccess } from '../../api/store-access.js';

/** The grant a store action needs: `write` for any change, `admin` for gc and branch deletion. */
export type ActionVerb = 'write' | 'admin';

/** The props that turn an action's button off, and say why in its description (its title). */
export interface ActionProps {
  readonly disabled?: boolean;
  readonly title?: string;
}

/** The store token's grant where a screen acts, as props that show what it may not do. */
export interface ActionAccess {
  /** `own` (the action's own disabled state and title) when the token holds `verb`, else disabled with the reason. */
  readonly guard: (verb: ActionVerb, own?: ActionProps) => ActionProps;
  /**
   * The visible line naming what the token may not do among `verbs` (the grants the screen's actions
   * need), to show beside them; null when it may do all of it.
   */
  readonly note: (verbs: readonly ActionVerb[]) => ReactNode;
}

const tokenNamed = (access: StoreAccess): string =>
  access.tokenName === null ? 'This store token' : `This store token (“${access.tokenName}”)`;

/** What the token may not do, as a phrase: `may not write to team/app or administer it`. */
function refusedPhrase(verbs: readonly ActionVerb[], namespace: string | undefined): string {
  const where = namespace ?? 'any namespace';
  if (verbs.length > 1) return `may not write to ${where} or administer it`;
  return verbs[0] === 'write' ? `may not write to ${where}` : `may not administer ${where}`;
}

/**
 * The store token's grant on `namespace` (any namespace when undefined) for a screen's actions: those
 * it may not take are disabled with the reason, not left to end in a 403 after their dialog is filled in.
 */
export function useActionAccess(namespace?: string): ActionAccess {
  const access = useStoreAccess(namespace);
  const refusedText = (verbs: readonly ActionVerb[]): string =>
    `${tokenNamed(access)} ${refusedPhrase(verbs, namespace)}`;
  return {
    guard: (verb, own = {}) => (access[verb] ? own : { disabled: true, title: refusedText([verb]) }),
    note: (verbs) => {
      const refused = verbs.filter((verb) => !access[verb]);
      if (refused.length === 0) return null;
      return (
        <p className="notice notice-warning" role="note" data-testid="action-access-note">
          {refusedText(refused)}. Its grants are set in store.auth.tokens.
        </p>
      );
    },
  };
}
