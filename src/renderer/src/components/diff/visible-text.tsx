import { splitInvisible, splitName, type TextPiece } from '../../lib/invisible-chars.js';

/** Ordinary text as it is, each invisible character as its named placeholder. */
function Pieces({ pieces }: { readonly pieces: readonly TextPiece[] }) {
  return (
    <>
      {pieces.map((piece, index) =>
        'text' in piece ? (
          piece.text
        ) : (
          <abbr
            key={index}
            className={piece.invisible.space ? 'unusual-space' : 'invisible-char'}
            title={piece.invisible.label}
          >
            {piece.invisible.shown}
          </abbr>
        ),
      )}
    </>
  );
}

/**
 * Text with its control and format characters shown as marked placeholders, and its unusual spaces
 * outlined, each named in its tooltip.
 */
export function VisibleText({ text }: { readonly text: string }) {
  return <Pieces pieces={splitInvisible(text)} />;
}

/**
 * A name shown on one line (a document key, a checkpoint name) as {@link VisibleText} shows a line,
 * and its line breaks, tabs and the spaces at either end or in a run marked too, isolated from the
 * text around it. Where it is a control's accessible name or a tooltip, use `nameText` with it.
 */
export function VisibleName({ text }: { readonly text: string }) {
  return (
    <bdi className="visible-name">
      <Pieces pieces={splitName(text)} />
    </bdi>
  );
}
