/**
 * Whether two PEM texts carry the same first certificate (a server's own, before its chain), compared
 * by their decoded bytes so line breaks and headers do not matter. No Electron imports: unit tested
 * under plain Node.
 */
export function sameCertificate(pemA: string, pemB: string): boolean {
  const a = firstCertificateBytes(pemA);
  const b = firstCertificateBytes(pemB);
  return a !== undefined && b !== undefined && a.equals(b);
}

function firstCertificateBytes(pem: string): Buffer | undefined {
  const match = /-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\s]+)-----END CERTIFICATE-----/.exec(pem);
  if (!match) return undefined;
  const bytes = Buffer.from(match[1]!.replace(/\s+/g, ''), 'base64');
  return bytes.length > 0 ? bytes : undefined;
}
