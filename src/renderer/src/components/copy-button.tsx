import { useEffect, useState } from 'react';
import { Button } from './button.js';
import { CheckIcon, CopyIcon } from './icons.js';

/**
 * Copies text to the clipboard and confirms for a moment. `what` names what is copied for assistive
 * technology when the visible label is a bare "Copy" beside it (`what="base URL"` reads "Copy base URL").
 */
export function CopyButton({
  text,
  label = 'Copy',
  what,
  size = 'sm',
  variant = 'secondary',
}: {
  readonly text: string;
  readonly label?: string;
  readonly what?: string;
  readonly size?: 'sm' | 'md';
  readonly variant?: 'secondary' | 'ghost' | 'primary';
}) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 1600);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = async (): Promise<void> => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      // Clipboard refused (insecure origin or permission): select-and-copy remains possible.
    }
  };
  return (
    <Button
      size={size}
      variant={variant}
      icon={copied ? <CheckIcon /> : <CopyIcon />}
      aria-label={what === undefined ? undefined : copied ? `Copied ${what}` : `${label} ${what}`}
      onClick={() => void copy()}
    >
      {copied ? 'Copied' : label}
    </Button>
  );
}
