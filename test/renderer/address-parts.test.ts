import { describe, expect, it } from 'vitest';
import { addressParts } from '../../src/renderer/src/lib/address-parts.js';

describe('addressParts', () => {
  it('cuts after the scheme, before the port and before each path segment', () => {
    expect(addressParts('http://127.0.0.1:8747/v1')).toEqual(['http://', '127.0.0.1', ':8747', '/v1']);
    expect(addressParts('https://gateway.example.com/ui/store?ns=a#top')).toEqual([
      'https://',
      'gateway.example.com',
      '/ui',
      '/store',
      '?ns=a',
      '#top',
    ]);
  });

  it('keeps an IPv6 host whole', () => {
    expect(addressParts('http://[::1]:8748')).toEqual(['http://', '[::1]', ':8748']);
    expect(addressParts('http://[fe80::1]/v1')).toEqual(['http://', '[fe80::1]', '/v1']);
  });

  it('gives back every character, in order', () => {
    for (const address of ['http://127.0.0.1:8747', 'localhost:8747/v1', 'not an address', '']) {
      expect(addressParts(address).join('')).toBe(address);
    }
  });
});
