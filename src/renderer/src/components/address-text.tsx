import { Fragment } from 'react';
import { addressParts } from '../lib/address-parts.js';

/**
 * An address (URL) in monospace that wraps only between its parts ({@link addressParts}), so a narrow
 * card never splits a host or a port number across lines.
 */
export function AddressText({ address, className = '' }: { readonly address: string; readonly className?: string }) {
  return (
    <code className={`address-text ${className}`.trim()}>
      {addressParts(address).map((part, index) => (
        <Fragment key={index}>
          {index > 0 && <wbr />}
          <span className="address-part">{part}</span>
        </Fragment>
      ))}
    </code>
  );
}
