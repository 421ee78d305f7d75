import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { X509Certificate } from 'node:crypto';
import { createSecureContext } from 'node:tls';

/** `server.tls`: the certificate (with its chain) and private key both services answer HTTPS with. */
export interface TlsFiles {
  readonly cert_file: string;
  readonly key_file: string;
}

/** The PEM texts of {@link TlsFiles}, as Node's HTTPS server takes them. */
export interface TlsCredentials {
  readonly cert: string;
  readonly key: string;
}

/** What reading `server.tls` found: the credentials, or each problem naming its key. */
export type TlsReading =
  | { readonly credentials: TlsCredentials; readonly warnings: readonly string[] }
  | { readonly problems: readonly string[] };

/** The files with relative paths read from `folder` (the configuration file's, as for the data folder). */
export function resolveTlsFiles(files: TlsFiles, folder: string): TlsFiles {
  return { cert_file: resolve(folder, files.cert_file), key_file: resolve(folder, files.key_file) };
}

/**
 * Reads and checks the pair the way the HTTPS server will use it, so a start fails naming the key
 * rather than with OpenSSL's text after the gateway was half built. An expiring certificate and a
 * key other users can read are warnings: the server still works, and the operator decides.
 */
export function readTlsFiles(files: TlsFiles, now = Date.now()): TlsReading {
  const cert = readPem(files.cert_file, 'server.tls.cert_file');
  const key = readPem(files.key_file, 'server.tls.key_file');
  if ('problem' in cert || 'problem' in key)
    return { problems: [cert, key].flatMap((read) => ('problem' in read ? [read.problem] : [])) };
  const problems = [
    ...(/-----BEGIN CERTIFICATE-----/.test(cert.text)
      ? []
      : [`server.tls.cert_file: ${files.cert_file} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`]),
    ...keyTextProblems(key.text, files.key_file),
  ];
  if (problems.length > 0) return { problems };
  try {
    createSecureContext({ cert: cert.text, key: key.text });
  } catch (error) {
    return { problems: [pairProblem(error, files)] };
  }
  return {
    credentials: { cert: cert.text, key: key.text },
    warnings: [...expiryWarnings(cert.text, files.cert_file, now), ...keyModeWarnings(files.key_file)],
  };
}

function readPem(path: string, key: string): { text: string } | { problem: string } {
  try {
    return { text: readFileSync(path, 'utf8') };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code;
    return { problem: `${key}: cannot read ${path} (${why ?? 'unreadable'})` };
  }
}

function keyTextProblems(text: string, path: string): string[] {
  if (/-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type: 4,ENCRYPTED/.test(text))
    return [
      `server.tls.key_file: ${path} is encrypted with a passphrase, which a server starting unattended cannot type; write an unencrypted copy readable only by you (openssl pkey -in ${path} -out key.pem && chmod 600 key.pem)`,
    ];
  if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(text))
    return [`server.tls.key_file: ${path} holds no PEM private key (-----BEGIN PRIVATE KEY-----)`];
  return [];
}

function pairProblem(error: unknown, files: TlsFiles): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/key values mismatch/i.test(message))
    return `server.tls.key_file: the key in ${files.key_file} does not belong to the certificate in ${files.cert_file}`;
  return `server.tls: the certificate and key cannot be used together (${message})`;
}

function expiryWarnings(certText: string, path: string, now: number): string[] {
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(certText);
  } catch {
    return [];
  }
  const ends = Date.parse(certificate.validTo);
  if (ends <= now) return [`server.tls.cert_file: the certificate in ${path} expired on ${certificate.validTo}`];
  if (ends - now < 14 * 86_400_000)
    return [`server.tls.cert_file: the certificate in ${path} expires on ${certificate.validTo}`];
  return [];
}

function keyModeWarnings(path: string): string[] {
  if (process.platform === 'win32') return [];
  const mode = statSync(path).mode & 0o777;
  if ((mode & 0o077) === 0) return [];
  return [
    `server.tls.key_file: ${path} can be read by other users (mode ${mode.toString(8).padStart(4, '0')}); chmod 600 it`,
  ];
}
