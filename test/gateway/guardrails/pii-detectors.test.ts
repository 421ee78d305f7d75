import { describe, expect, it } from 'vitest';
import { PII_ENTITY_TYPES } from '../../../src/shared/guardrails-api.js';
import { ibanValid, luhnValid } from '../../../src/server/gateway/guardrails/pii/checksums.js';
import { detectorsFor, findEntities } from '../../../src/server/gateway/guardrails/pii/detectors.js';

const ALL = detectorsFor(new Set(PII_ENTITY_TYPES));

/** The entities of a text as `type:value`. */
function found(text: string): string[] {
  return findEntities(text, ALL).map((entity) => `${entity.type}:${text.slice(entity.start, entity.end)}`);
}

describe('checksums', () => {
  it('Luhn accepts real card numbers and refuses a changed digit', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('5500005555555559')).toBe(true);
    expect(luhnValid('378282246310005')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(luhnValid('1234567812345678')).toBe(false);
  });

  it('IBAN mod-97 accepts real IBANs and refuses a changed digit or a swapped pair', () => {
    expect(ibanValid('DE89370400440532013000')).toBe(true);
    expect(ibanValid('GB82WEST12345698765432')).toBe(true);
    expect(ibanValid('FR1420041010050500013M02606')).toBe(true);
    expect(ibanValid('DE89370400440532013001')).toBe(false);
    expect(ibanValid('DE98370400440532013000')).toBe(false);
  });
});

describe('PII detection', () => {
  it('finds e-mail addresses', () => {
    expect(found('mail jane.doe+tag@example.co.uk today')).toEqual(['email:jane.doe+tag@example.co.uk']);
    expect(found('no address @ here, nor a@b')).toEqual([]);
  });

  it('finds addresses in Latin, Greek and Cyrillic letters, fullwidth, or with invisible characters inside', () => {
    for (const address of [
      'josé@example.com',
      'ada@bücher.de',
      'ａｄａ＠ｅｘａｍｐｌｅ．ｃｏｍ',
      'ada@exаmple.com', // a Cyrillic а in the domain
      'аda@example.com', // and as the first letter
      'ada@exa\u200Bmple.com',
      'ada@пример.рф',
    ])
      expect(found(`write to ${address}, please`)).toEqual([`email:${address}`]);
    // Invisible characters around an address are not part of it (a mark of direction, a zero-width space).
    expect(found('to jane@example.com\u200E and \u200Eada@example.org\u200B.')).toEqual([
      'email:jane@example.com',
      'email:ada@example.org',
    ]);
    expect(found('to jane@example.c\u200Bom')).toEqual(['email:jane@example.c\u200Bom']);
    // Scripts written without spaces run into an address: only the address is taken.
    expect(found('联系我ada@example.com和我联系')).toEqual(['email:ada@example.com']);
    expect(found('メールはada@example.jpです')).toEqual(['email:ada@example.jp']);
  });

  it('scans a long run of address characters that is no address in linear time', () => {
    // Tried from every position of the run, the scan took seconds (a request could stall the gateway).
    for (const text of [
      'a'.repeat(80_000) + '@',
      'x@' + 'b'.repeat(80_000),
      'a.'.repeat(40_000) + '@',
      '\u200B'.repeat(80_000) + 'a@',
      ('\u200B'.repeat(300) + 'a').repeat(300) + '@',
    ]) {
      const start = performance.now();
      expect(found(text)).toEqual([]);
      expect(performance.now() - start).toBeLessThan(2_000);
    }
  });

  it('finds phone numbers in international and national forms, not dates or short numbers', () => {
    expect(found('call +1 415 555 0132 or (020) 7946 0958 or 415-555-0132')).toEqual([
      'phone:+1 415 555 0132',
      'phone:(020) 7946 0958',
      'phone:415-555-0132',
    ]);
    expect(found('UK mobile 07700 900123.')).toEqual(['phone:07700 900123']);
    expect(found('on 2024-01-15 we sold 1234 units for 56.78')).toEqual([]);
  });

  it('finds Luhn-valid card numbers only', () => {
    expect(found('card 4111 1111 1111 1111 exp 12/29')).toEqual(['credit_card:4111 1111 1111 1111']);
    expect(found('card 4111-1111-1111-1111')).toEqual(['credit_card:4111-1111-1111-1111']);
    expect(found('amex 378282246310005')).toEqual(['credit_card:378282246310005']);
    // One digit changed: fails Luhn, so it is not a card (nor anything else).
    expect(found('order 4111 1111 1111 1112')).toEqual([]);
    expect(found('id 1234567812345678')).toEqual([]);
    // The digits of a hex number or of an identifier joined by _; a word run into a card is still one.
    expect(found('mask 0x4111111111111111, key_4111111111111111, 4111111111111111_v2')).toEqual([]);
    expect(found('Visa4111111111111111 and \\n4111111111111111')).toEqual([
      'credit_card:4111111111111111',
      'credit_card:4111111111111111',
    ]);
    // Luhn-valid, but no card network's number starts with 1 (a millisecond timestamp, say).
    expect(luhnValid('1700000000004')).toBe(true);
    expect(found('at 1700000000004')).toEqual([]);
    expect(found('mastercard 5500 0055 5555 5559, discover 6011111111111117')).toEqual([
      'credit_card:5500 0055 5555 5559',
      'credit_card:6011111111111117',
    ]);
  });

  it('finds IBANs whose mod-97 checksum holds, printed or compact, and stops where the account does', () => {
    expect(found('pay DE89 3704 0044 0532 0130 00 now')).toEqual(['iban:DE89 3704 0044 0532 0130 00']);
    expect(found('GB82WEST12345698765432.')).toEqual(['iban:GB82WEST12345698765432']);
    expect(found('pay DE89 3704 0044 0532 0130 01 now')).toEqual([]);
    expect(found('pay DE98370400440532013000')).toEqual([]);
  });

  it('finds IPv4 and IPv6 addresses, not versions or times', () => {
    expect(found('from 192.168.1.20 and 2001:db8::8a2e:370:7334, loopback ::1')).toEqual([
      'ip_address:192.168.1.20',
      'ip_address:2001:db8::8a2e:370:7334',
      'ip_address:::1',
    ]);
    expect(found('at 10:30:45 version 1.2.3 and 999.1.1.1')).toEqual([]);
    // Code: Rust paths and operators, a Python slice; a URL's bracketed address still is one.
    expect(found('impl Add::add for a::b; a[::2] and b[1::2]')).toEqual([]);
    expect(found('http://[::1]:8080/ and fe80::1')).toEqual(['ip_address:::1', 'ip_address:fe80::1']);
  });

  it('finds national ids: US SSN, UK NINO, Canadian SIN (Luhn), Spanish DNI (check letter)', () => {
    expect(found('SSN 123-45-6789, NINO AB 12 34 56 C, SIN 046 454 286, DNI 12345678Z')).toEqual([
      'national_id:123-45-6789',
      'national_id:AB 12 34 56 C',
      'national_id:046 454 286',
      'national_id:12345678Z',
    ]);
    // Impossible SSN areas, a SIN failing Luhn, a DNI with the wrong letter.
    expect(found('000-12-3456 666-12-3456 046 454 287 12345678A')).toEqual([]);
  });

  it('finds secrets: provider and cloud keys, private keys, JWTs', () => {
    const pem = '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx\n-----END RSA PRIVATE KEY-----';
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';
    const text = `keys sk-proj-abcdefghijklmnopqrstuvwx sk-ant-api03-abcdefghijklmnopqrstuvwx AKIAIOSFODNN7EXAMPLE ${pem} token ${jwt}`;
    expect(found(text)).toEqual([
      'secret:sk-proj-abcdefghijklmnopqrstuvwx',
      'secret:sk-ant-api03-abcdefghijklmnopqrstuvwx',
      'secret:AKIAIOSFODNN7EXAMPLE',
      `secret:${pem}`,
      `secret:${jwt}`,
    ]);
    // A private key cut off before its end line is scrubbed to the end of the text.
    expect(found('-----BEGIN PRIVATE KEY-----\nMIIEvQ')).toEqual(['secret:-----BEGIN PRIVATE KEY-----\nMIIEvQ']);
    expect(found('a task-list and a skeleton')).toEqual([]);
  });

  it('detects only the chosen types', () => {
    const onlyEmail = detectorsFor(new Set(['email'] as const));
    expect(findEntities('a@example.com 4111111111111111', onlyEmail)).toHaveLength(1);
  });

  it('never matches a quote, backslash or control character in a restorable value', () => {
    const text = 'x"a@example.com" \\ +1 415 555 0132\n "192.168.0.1"';
    for (const entity of findEntities(text, ALL)) {
      if (entity.type === 'secret') continue;
      const value = text.slice(entity.start, entity.end);
      expect(value).not.toMatch(/["\\]/);
      expect([...value].every((char) => char.charCodeAt(0) >= 0x20)).toBe(true);
    }
  });
});
