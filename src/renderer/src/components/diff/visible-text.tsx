import { splitInvisible } from '../../lib/invisible-chars.js';

/**
 * Text with its control and format characters shown as marked placeholders, and its unusual spaces
 * outlined, each named in its tooltip.
 */
export function VisibleText({ text }: { readonly text: string }) {
  return (
    <>
      {splitInvisible(text).map((piece, index) =>
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
