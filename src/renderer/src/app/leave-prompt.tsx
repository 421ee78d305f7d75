import { useEffect } from 'react';
import { ConfirmFooter, Dialog } from '../components/dialog.js';
import { askToLeave, holdsUnsaved, resolveLeave, usePendingLeave, type LeaveWording } from '../lib/unsaved-changes.js';
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
  const wording = pending.wording ?? draftWording(pending.screen);
  return (
    <Dialog
      title={wording.title}
      description={wording.description}
      onClose={keep}
      testId="leave-dialog"
      footer={
        <ConfirmFooter
          onCancel={keep}
          cancelLabel={wording.stay}
          onConfirm={() => resolveLeave('discard')}
          variant="danger"
          testId="discard-and-leave"
        >
          {wording.leave}
        </ConfirmFooter>
      }
    />
  );
}

/** The prompt for a screen's unsaved draft. */
function draftWording(screen: string): LeaveWording {
  return {
    title: `Discard unsaved changes to ${screen}?`,
    description: 'They have not been saved. Discarding them cannot be undone.',
    stay: 'Keep editing',
    leave: 'Discard',
  };
}
