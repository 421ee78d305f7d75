import { useEffect } from 'react';
import { ConfirmFooter, Dialog } from '../components/dialog.js';
import { askToLeave, holdsUnsaved, resolveLeave, usePendingLeave } from '../lib/unsaved-changes.js';
import { setLeaveGuard } from './router.js';

/**
 * Asks before a navigation (a link, a `g` shortcut, Back or Forward, signing out) drops a screen's
 * unsaved changes. Keep editing (also Esc) stays with the draft as it is; Discard goes on.
 */
export function LeavePrompt() {
  const pending = usePendingLeave();
  useEffect(() => {
    setLeaveGuard({ holds: holdsUnsaved, ask: askToLeave });
    return () => setLeaveGuard(undefined);
  }, []);
  if (!pending) return null;
  const keep = (): void => resolveLeave('keep');
  return (
    <Dialog
      title={`Discard unsaved changes to ${pending.screen}?`}
      description="They have not been saved. Discarding them cannot be undone."
      onClose={keep}
      testId="leave-dialog"
      footer={
        <ConfirmFooter
          onCancel={keep}
          cancelLabel="Keep editing"
          onConfirm={() => resolveLeave('discard')}
          variant="danger"
          testId="discard-and-leave"
        >
          Discard
        </ConfirmFooter>
      }
    />
  );
}
