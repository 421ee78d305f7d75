import { describe, expect, it } from 'vitest';
import { describeInvisible, splitInvisible } from '../../src/renderer/src/lib/invisible-chars.js';
import { diffLines } from '../../src/renderer/src/lib/text-diff.js';

const kinds = (before: string, after: string) => diffLines(before, after).map((line) => line.kind);

describe('line endings in a diff', () => {
  it('shows a line that went from LF to CRLF as changed, the carriage return the changed part', () => {
    const lines = diffLines('one\ntwo\n', 'one\r\ntwo\n');
    expect(lines.map((line) => line.kind)).toEqual(['del', 'add', 'context']);
    expect(lines[1]!.segments).toEqual([
      { text: 'one', changed: false },
      { text: '\r', changed: true },
    ]);
  });

  it('shows a line ending change next to a change of content, not only the content', () => {
    expect(kinds('a\nb\nc\n', 'a\r\nB\nc\n')).toEqual(['del', 'del', 'add', 'add', 'context']);
  });

  it('marks the last line when the final newline is removed or added', () => {
    const removed = diffLines('alpha\nbeta\n', 'alpha\nbeta');
    expect(removed.map((line) => [line.kind, line.noNewline ?? false])).toEqual([
      ['context', false],
      ['del', false],
      ['add', true],
    ]);
    const added = diffLines('alpha', 'alpha\n');
    expect(added.map((line) => [line.kind, line.noNewline ?? false])).toEqual([
      ['del', true],
      ['add', false],
    ]);
  });

  it('says nothing of the final newline of a created or deleted document', () => {
    expect(diffLines(undefined, 'a').some((line) => line.noNewline)).toBe(false);
    expect(diffLines('a', undefined).some((line) => line.noNewline)).toBe(false);
  });

  it('keeps equal documents without a final newline equal', () => {
    expect(kinds('a\nb', 'a\nb')).toEqual(['context', 'context']);
    expect(kinds('a\r\nb\r\n', 'a\r\nb\r\n')).toEqual(['context', 'context']);
  });
});

describe('invisible characters', () => {
  it('names zero-width and byte-order characters by code point', () => {
    expect(splitInvisible('abc\u200b')).toEqual([
      { text: 'abc' },
      { invisible: { char: '\u200b', shown: 'U+200B', label: 'U+200B zero width space' } },
    ]);
    expect(describeInvisible('\ufeff').label).toBe('U+FEFF byte order mark');
    expect(describeInvisible('\u202e').shown).toBe('U+202E');
  });

  it('shows ASCII control characters by their abbreviations', () => {
    expect(describeInvisible('\u0000')).toEqual({ char: '\u0000', shown: 'NUL', label: 'U+0000 null' });
    expect(describeInvisible('\r').shown).toBe('CR');
    expect(describeInvisible('\u001b').shown).toBe('ESC');
    expect(describeInvisible('\u007f').shown).toBe('DEL');
    expect(describeInvisible('\u0085').label).toBe('U+0085 control character');
  });

  it('leaves tabs, ordinary text and emoji joined by a zero width joiner alone', () => {
    expect(splitInvisible('a\tb')).toEqual([{ text: 'a\tb' }]);
    expect(splitInvisible('dev 👩‍💻 and 👩🏽‍💻')).toEqual([{ text: 'dev 👩‍💻 and 👩🏽‍💻' }]);
    expect(splitInvisible('a\u200db').map((piece) => ('text' in piece ? piece.text : piece.invisible.shown))).toEqual([
      'a',
      'U+200D',
      'b',
    ]);
  });

  it('outlines spaces other than U+0020, keeping the character itself, and names them', () => {
    expect(splitInvisible('port:\u00a08080')).toEqual([
      { text: 'port:' },
      { invisible: { char: '\u00a0', shown: '\u00a0', label: 'U+00A0 no-break space', space: true } },
      { text: '8080' },
    ]);
    expect(describeInvisible('\u2009').label).toBe('U+2009 thin space');
    expect(describeInvisible('\u202f').label).toBe('U+202F narrow no-break space');
    expect(describeInvisible('\u3000').space).toBe(true);
    expect(splitInvisible('plain spaces stay text')).toEqual([{ text: 'plain spaces stay text' }]);
  });

  it('shows a line where only a space became a no-break space with the changed space named', () => {
    const lines = diffLines('name: a b\n', 'name: a\u00a0b\n');
    expect(lines.map((line) => line.kind)).toEqual(['del', 'add']);
    const changed = lines[1]!.segments!.filter((segment) => segment.changed).map((segment) => segment.text);
    expect(changed.join('')).toContain('\u00a0');
    expect(
      changed.flatMap((text) => splitInvisible(text)).some((piece) => 'invisible' in piece && piece.invisible.space),
    ).toBe(true);
  });
});
