import { describe, expect, it } from 'vitest';
import { visitJsonText } from '../../../src/server/gateway/formats/json-text-visit.js';
import type { TextLocation } from '../../../src/server/gateway/formats/text-visitor.js';

const where: TextLocation = { kind: 'tool_arguments', role: 'assistant', messageIndex: 1, path: 'args' };

/** The texts visited, with their paths, and the text as the visitor's replacements leave it. */
function walk(text: string, replace: Record<string, string> = {}) {
  const seen: string[] = [];
  const result = visitJsonText(text, (value, at) => (seen.push(`${at.path}=${value}`), replace[value]), where);
  return { seen, result };
}

describe('visiting a JSON text token by token', () => {
  it('decodes strings, keys and numbers, with their paths, and replaces only what was replaced', () => {
    const text = String.raw`{"to": "ada\u0040x.io", "list": [1, "two", {"k\u0065y": null}], "big": 12345678901234567890}`;
    const { seen, result } = walk(text, { 'ada@x.io': '[EMAIL_1]', key: 'KEY', '12345678901234567890': '[N]' });
    expect(seen).toEqual([
      'args.to=to',
      'args.to=ada@x.io',
      'args.list=list',
      'args.list[0]=1',
      'args.list[1]=two',
      'args.list[2].key=key',
      'args.big=big',
      'args.big=12345678901234567890',
    ]);
    expect(result).toBe(String.raw`{"to": "[EMAIL_1]", "list": [1, "two", {"KEY": null}], "big": "[N]"}`);
  });

  it('answers the text itself when nothing was replaced', () => {
    const text = String.raw`["a\tb", 1.0, true]`;
    expect(walk(text).result).toBe(text);
  });

  it('answers null for a text that is not one JSON text', () => {
    for (const text of [
      String.raw`C:\temp\notes.txt`,
      String.raw`{"a": "b"} {"c": "d"}`,
      String.raw`{"a": "unterminated\"}`,
      String.raw`{"a": [1, 2}`,
      String.raw`"bad \x escape"`,
    ])
      expect({ text, result: walk(text).result }).toEqual({ text, result: null });
  });
});
