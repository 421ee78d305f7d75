import { app } from 'electron';
import { sameCertificate } from './same-certificate.js';
import { hasTrustedOrigin } from './trusted-url.js';
import type { TrustedOrigins } from './security.js';

/** What the window may trust: the servers' own origins and the certificate they answer HTTPS with. */
export interface OwnCertificate {
  readonly origins: TrustedOrigins;
  /** `server.tls`'s certificate (PEM); undefined when the servers answer HTTP. */
  readonly certificate: string | undefined;
}

/**
 * With `server.tls`, the window loads the UI over HTTPS from this machine, often with a certificate
 * the system does not trust (a LAN's own, or self-signed). The app trusts exactly the certificate its
 * own servers were started with, and only on their origins; any other certificate error is refused
 * as Electron refuses it by default.
 */
export function trustOwnCertificate(own: () => OwnCertificate | undefined): void {
  app.on('certificate-error', (event, _contents, url, _error, certificate, callback) => {
    const current = own();
    const trusted =
      current?.certificate !== undefined &&
      hasTrustedOrigin(url, [current.origins.app, current.origins.store]) &&
      sameCertificate(certificate.data, current.certificate);
    if (trusted) event.preventDefault();
    callback(trusted);
  });
}
