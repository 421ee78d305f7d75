import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sameCertificate } from '../../src/main/same-certificate.js';
import { selfSignedCertificate } from '../support/tls-certificate.js';

const dir = mkdtempSync(join(tmpdir(), 'gatehouse-same-cert-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const selfSigned = (name: string): string =>
  selfSignedCertificate(join(dir, `${name}.crt`), join(dir, `${name}.key`), 1);

// The desktop window trusts exactly its own servers' certificate: Electron hands it the PEM it was
// shown, whose line breaks need not be the file's.
describe('the certificate the desktop window trusts', () => {
  const own = selfSigned('own');
  const other = selfSigned('other');

  it('is the servers own, however its PEM is wrapped, and only the first of a chain counts', () => {
    const rewrapped = own.replace(/\n(?!-----)/g, '\r\n');
    expect(sameCertificate(rewrapped, own)).toBe(true);
    expect(sameCertificate(own, `${own}${other}`)).toBe(true);
  });

  it('is never another certificate, nor a text without one', () => {
    expect(sameCertificate(other, own)).toBe(false);
    expect(sameCertificate(`${other}${own}`, own)).toBe(false);
    expect(sameCertificate('', own)).toBe(false);
    expect(
      sameCertificate(
        '-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----',
        '-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----',
      ),
    ).toBe(false);
  });
});
