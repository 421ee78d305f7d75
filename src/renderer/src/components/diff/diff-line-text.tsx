import type { DiffLine } from '../../lib/text-diff.js';

/** A line's text, with changed words marked when it was paired with its counterpart. */
export function DiffLineText({ line }: { readonly line: DiffLine | undefined }) {
  if (!line) return null;
  if (!line.segments) return <>{line.text || '\u200b'}</>;
  return (
    <>
      {line.segments.map((segment, index) =>
        segment.changed ? (
          <mark key={index} className={line.kind === 'add' ? 'word-add' : 'word-del'}>
            {segment.text}
          </mark>
        ) : (
          <span key={index}>{segment.text}</span>
        ),
      )}
    </>
  );
}

const SIGN = { add: '+', del: '−', context: ' ' } as const;

/** One row of the unified layout: old and new line numbers, sign, text. */
export function UnifiedRow({ line }: { readonly line: DiffLine }) {
  return (
    <tr className={`diff-row diff-${line.kind}`}>
      <td className="diff-ln">{line.oldNo}</td>
      <td className="diff-ln">{line.newNo}</td>
      <td className="diff-sign">{SIGN[line.kind]}</td>
      <td className="diff-code">
        <DiffLineText line={line} />
      </td>
    </tr>
  );
}

/** One row of the side-by-side layout: old line left, new line right. */
export function SplitRow({ left, right }: { readonly left?: DiffLine; readonly right?: DiffLine }) {
  const side = (line: DiffLine | undefined, which: 'old' | 'new') => {
    const kind = line ? line.kind : 'empty';
    return (
      <>
        <td className={`diff-ln diff-${kind}`}>{which === 'old' ? line?.oldNo : line?.newNo}</td>
        <td className={`diff-code diff-${kind}`}>
          <DiffLineText line={line} />
        </td>
      </>
    );
  };
  return (
    <tr className="diff-row">
      {side(left, 'old')}
      {side(right, 'new')}
    </tr>
  );
}
