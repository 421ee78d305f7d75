import type { ApiKeyCreated } from '../../../../shared/gateway-api.js';
import { Button } from '../../components/button.js';
import { CopyButton } from '../../components/copy-button.js';
import { Dialog } from '../../components/dialog.js';
import { AlertIcon } from '../../components/icons.js';

/** A client snippet using the new key against this gateway. */
function example(gatewayUrl: string, key: string): string {
  return `from openai import OpenAI\n\nclient = OpenAI(base_url="${gatewayUrl}/v1", api_key="${key}")\nreply = client.chat.completions.create(\n    model="demo/echo",\n    messages=[{"role": "user", "content": "Hello"}],\n)\nprint(reply.choices[0].message.content)`;
}

/** Shows a new key's secret, the only time it is ever shown, with a copy button. */
export function KeySecretDialog({
  issued,
  gatewayUrl,
  onClose,
}: {
  readonly issued: ApiKeyCreated;
  readonly gatewayUrl: string;
  readonly onClose: () => void;
}) {
  return (
    <Dialog
      testId="key-secret-dialog"
      title={`Key “${issued.name ?? issued.key_prefix}” issued`}
      onClose={onClose}
      footer={
        <Button variant="primary" onClick={onClose} data-testid="close-secret">
          I have copied the key
        </Button>
      }
    >
      <div className="notice notice-warning">
        <AlertIcon />
        <span>Copy the key now. Gatehouse stores only a hash of it: it cannot show it again.</span>
      </div>
      <div className="secret-row">
        <code className="secret" data-testid="issued-key-secret">
          {issued.key}
        </code>
        <CopyButton text={issued.key} what="key" size="md" variant="primary" />
      </div>
      <div className="section-title">Use it</div>
      <pre className="code-block">{example(gatewayUrl, issued.key)}</pre>
    </Dialog>
  );
}
