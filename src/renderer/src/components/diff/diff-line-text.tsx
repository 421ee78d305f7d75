import type { DiffLine } from '../../lib/text-diff.js';
import type { RowPlace } from './virtual-table-body.js';
import { VisibleText } from './visible-text.js';

// The carriage return of a CRLF line is only worth showing where it is what changed.
const withoutCr = (text: string): string => (text.endsWith('\r') ? text.slice(0, -1) : text);

/** Marks a changed line that ends its document without a newline (git's "No newline at end of file"). */
function NoNewline({ line }: { readonly line: DiffLine }) {
  if (!line.noNewline || line.kind === 'context') return null;
  return (
    <mark className={`no-newline ${line.kind === 'add' ? 'word-add' : 'word-del'}`} title="No newline at end of file">
      no newline at end
    </mark>
  );
}

/**
 * A line's text, with changed words marked when it was paired with its counterpart, invisible
 * characters shown, and a missing final newline said.
 */
export function DiffLineText({ line }: { readonly line: DiffLine | undefined }) {
  if (!line) return null;
  const segments = line.segments;
  if (!segments) {
    const text = withoutCr(line.text);
    return (
      <>
        {text ? <VisibleText text={text} /> : null}
        <NoNewline line={line} />
      </>
    );
  }
  return (
    <>
      {segments.map((segment, index) =>
        segment.changed ? (
          <mark key={index} className={line.kind === 'add' ? 'word-add' : 'word-del'}>
            <VisibleText text={segment.text} />
          </mark>
        ) : (
          <span key={index}>
            <VisibleText text={index === segments.length - 1 ? withoutCr(segment.text) : segment.text} />
          </span>
        ),
      )}
      <NoNewline line={line} />
    </>
  );
}

const SIGN = { add: '+', del: '−', context: ' ' } as const;

/** One row of the unified layout: old and new line numbers, sign, text. */
export function UnifiedRow({ line, place }: { readonly line: DiffLine; readonly place?: RowPlace }) {
  return (
    <tr className={`diff-row diff-${line.kind}`} {...place}>
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
export function SplitRow({
  left,
  right,
  place,
}: {
  readonly left?: DiffLine;
  readonly right?: DiffLine;
  readonly place?: RowPlace;
}) {
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
    <tr className="diff-row" {...place}>
      {side(left, 'old')}
      {side(right, 'new')}
    </tr>
  );
}
