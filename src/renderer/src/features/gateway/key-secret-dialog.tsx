import { useState } from 'react';
import type { ApiKeyCreated } from '../../../../shared/gateway-api.js';
import { useModelSettings } from '../../api/gateway-queries.js';
import { Button } from '../../components/button.js';
import { CopyButton } from '../../components/copy-button.js';
import { Dialog } from '../../components/dialog.js';
import { AlertIcon } from '../../components/icons.js';
import { Segmented } from '../../components/segmented.js';
import { useUnsavedChanges, type LeaveWording } from '../../lib/unsaved-changes.js';
import { fullTime } from '../../lib/format.js';
import { keyExample } from './key-example.js';
import { EXAMPLE_LANGUAGES, keyExampleCode, type ExampleLanguage } from './key-example-code.js';

/** Leaving the page (Back, a reload, a link) while the secret is shown would lose it for good. */
const LEAVE_SECRET: LeaveWording = {
  title: 'Leave without the new key?',
  description: 'Its secret is shown only this once: Gatehouse keeps only a hash of it and cannot show it again.',
  stay: 'Stay',
  leave: 'Leave',
};

/** Leaving while a key is issued or rotated would lose the secret on its way, as surely as one on screen. */
const LEAVE_SECRET_ON_ITS_WAY: LeaveWording = {
  title: 'Leave before the new secret arrives?',
  description:
    'The gateway is making a new secret, shown only once, when it arrives. Leaving now loses it: the key would have to be rotated again to get one.',
  stay: 'Stay',
  leave: 'Leave',
};

/** Asks before leaving while a new secret is on its way (rendered while the write runs). */
export function SecretOnItsWay() {
  useUnsavedChanges('the new key', LEAVE_SECRET_ON_ITS_WAY);
  return null;
}

/** What became of the secret a rotation replaced. */
function previousSecretNote(rotated: ApiKeyCreated): string {
  const until = rotated.previous_key_expires_at;
  if (until === null || until === rotated.rotated_at) return 'The old secret no longer works.';
  return `The old secret works until ${fullTime(until)}: move every client over by then.`;
}

/** Shows a new key's secret (or a rotated key's new one), the only time it is ever shown, with a copy button. */
export function KeySecretDialog({
  issued,
  gatewayUrl,
  onClose,
}: {
  readonly issued: ApiKeyCreated;
  readonly gatewayUrl: string;
  readonly onClose: () => void;
}) {
  const example = keyExample(issued, useModelSettings().data);
  const [language, setLanguage] = useState<ExampleLanguage>('python');
  const code = example ? keyExampleCode(language, gatewayUrl, issued.key, example) : '';
  useUnsavedChanges('the new key', LEAVE_SECRET);
  const rotated = issued.rotated_at !== null;
  const name = issued.name ?? issued.key_prefix;
  return (
    <Dialog
      testId="key-secret-dialog"
      title={rotated ? `New secret for “${name}”` : `Key “${name}” issued`}
      onClose={onClose}
      explicitClose
      footer={
        <Button variant="primary" onClick={onClose} data-testid="close-secret">
          I have copied the key
        </Button>
      }
    >
      <div className="notice notice-warning">
        <AlertIcon />
        <span>
          Copy the key now. Gatehouse stores only a hash of it: it cannot show it again.
          {rotated && ` ${previousSecretNote(issued)}`}
        </span>
      </div>
      <div className="secret-row">
        <code className="secret" data-testid="issued-key-secret">
          {issued.key}
        </code>
        <CopyButton text={issued.key} what="key" size="md" variant="primary" />
      </div>
      <div className="section-title section-title-row">
        <span>Use it</span>
        {example && (
          <span className="section-title-controls">
            <Segmented options={EXAMPLE_LANGUAGES} value={language} onChange={setLanguage} label="Example language" />
            <CopyButton text={code} what="example" />
          </span>
        )}
      </div>
      {example ? (
        <pre className="code-block" data-testid="key-example">
          {code}
        </pre>
      ) : (
        <p className="muted">
          Its scopes allow none of chat, responses and embeddings, so there is no call to show here.
        </p>
      )}
    </Dialog>
  );
}
