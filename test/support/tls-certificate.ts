import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * A self-signed certificate for localhost and 127.0.0.1, as `openssl req -x509` makes one for a LAN
 * (docs/configuration.md#https), written to `cert` and `key` (mode 0600); returns the certificate's PEM.
 */
export function selfSignedCertificate(cert: string, key: string, days = 30): string {
  mkdirSync(dirname(cert), { recursive: true });
  mkdirSync(dirname(key), { recursive: true });
  execFileSync('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    key,
    '-out',
    cert,
    '-days',
    String(days),
    '-subj',
    '/CN=localhost',
    '-addext',
    'subjectAltName=DNS:localhost,IP:127.0.0.1',
  ]);
  chmodSync(key, 0o600);
  return readFileSync(cert, 'utf8');
}
