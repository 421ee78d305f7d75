import { describe, expect, it } from 'vitest';
import { hasTrustedOrigin, isSafeExternalUrl, isTrustedAppUrl } from '../../src/main/trusted-url.js';

const app = 'http://127.0.0.1:8747';

describe('isTrustedAppUrl', () => {
  it('accepts the UI under the gateway origin', () => {
    expect(isTrustedAppUrl('http://127.0.0.1:8747/ui/', app)).toBe(true);
    expect(isTrustedAppUrl('http://127.0.0.1:8747/ui', app)).toBe(true);
    expect(isTrustedAppUrl('http://127.0.0.1:8747/ui/store/history?ns=a#x', app)).toBe(true);
  });

  it('rejects other paths of the same origin', () => {
    expect(isTrustedAppUrl('http://127.0.0.1:8747/', app)).toBe(false);
    expect(isTrustedAppUrl('http://127.0.0.1:8747/uix/', app)).toBe(false);
    expect(isTrustedAppUrl('http://127.0.0.1:8747/internal/api-keys', app)).toBe(false);
  });

  it('rejects look-alike origins', () => {
    expect(isTrustedAppUrl('http://127.0.0.1:8748/ui/', app)).toBe(false);
    expect(isTrustedAppUrl('https://127.0.0.1:8747/ui/', app)).toBe(false);
    expect(isTrustedAppUrl('http://localhost:8747/ui/', app)).toBe(false);
    expect(isTrustedAppUrl('http://127.0.0.1:8747.evil.test/ui/', app)).toBe(false);
    expect(isTrustedAppUrl('http://evil.test/ui/?http://127.0.0.1:8747/ui/', app)).toBe(false);
  });

  it('rejects credentials, other schemes and garbage', () => {
    expect(isTrustedAppUrl('http://user:pw@127.0.0.1:8747/ui/', app)).toBe(false);
    expect(isTrustedAppUrl('file:///etc/passwd', app)).toBe(false);
    expect(isTrustedAppUrl('javascript:alert(1)', app)).toBe(false);
    expect(isTrustedAppUrl('not a url', app)).toBe(false);
    expect(isTrustedAppUrl('http://127.0.0.1:8747/ui/', 'not a url')).toBe(false);
  });

  it('treats the default port as part of the origin', () => {
    expect(isTrustedAppUrl('http://example.test:80/ui/', 'http://example.test')).toBe(true);
  });
});

describe('hasTrustedOrigin', () => {
  it('matches any listed origin exactly', () => {
    const origins = [app, 'http://127.0.0.1:8748'];
    expect(hasTrustedOrigin('http://127.0.0.1:8748/v1/state', origins)).toBe(true);
    expect(hasTrustedOrigin('http://127.0.0.1:8749/', origins)).toBe(false);
    expect(hasTrustedOrigin('garbage', origins)).toBe(false);
  });
});

describe('isSafeExternalUrl', () => {
  it('allows http and https links', () => {
    expect(isSafeExternalUrl('https://github.com/geeper-io/st8')).toBe(true);
    expect(isSafeExternalUrl('http://example.test/docs')).toBe(true);
  });

  it('refuses schemes that run or open local things', () => {
    for (const url of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://host/share',
      'vscode://x',
      'data:text/html,hi',
      'mailto:a@b.c',
    ]) {
      expect(isSafeExternalUrl(url)).toBe(false);
    }
  });

  it('refuses embedded credentials and unparsable input', () => {
    expect(isSafeExternalUrl('https://user:pw@example.test/')).toBe(false);
    expect(isSafeExternalUrl('')).toBe(false);
    expect(isSafeExternalUrl('https://')).toBe(false);
  });
});
