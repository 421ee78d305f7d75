/** A part of a Markdown document under one heading path (`Setup > Linux`; null before the first heading). */
export interface MarkdownSection {
  readonly heading: string | null;
  readonly body: string;
}

// Only the opening is matched by a pattern; the title is trimmed by hand (parseHeading). A pattern with
// a lazy title followed by optional spaces and closing #s backtracks in cubic time over a long run of
// spaces, which let one line of a document stall the process for minutes.
const HEADING_OPENING = /^(#{1,6})[ \t]+(?=\S)/;
const FENCE = /^\s*(```|~~~)/;

/** An ATX heading's level and title (without a closing run of #s), or undefined for other lines. */
export function parseHeading(line: string): { level: number; title: string } | undefined {
  const opening = HEADING_OPENING.exec(line);
  if (opening === null) return undefined;
  let title = line.slice(opening[0].length).trimEnd();
  let end = title.length;
  while (end > 0 && title[end - 1] === '#') end -= 1;
  // A closing sequence counts only after a space ("# C#" keeps its #); a title of #s alone stays.
  if (end < title.length && end > 0 && (title[end - 1] === ' ' || title[end - 1] === '\t'))
    title = title.slice(0, end).trimEnd();
  return { level: opening[1]!.length, title };
}

/**
 * Markdown split at headings; each section carries its heading path. Stops once it has more than
 * `stopAfter` sections: a caller that refuses a document over a limit need not split all of it.
 */
export function markdownSections(content: string, stopAfter = Infinity): MarkdownSection[] {
  const sections: MarkdownSection[] = [];
  const path: string[] = [];
  let current: string[] = [];
  let hasContent = false;
  let inFence = false;
  /** The level of the heading the current section is under (0: before the first heading). */
  let level = 0;
  /** Ends the current section; `nextLevel` is the level of the heading that ends it (undefined: the end). */
  const flush = (nextLevel?: number): void => {
    const body = current.join('\n').trim();
    // A heading directly followed by a subheading has nothing of its own to index: the subheading's
    // section carries its title in its path. One followed by nothing deeper is text in its own right
    // (a title-only document, a closing "## Questions? Ask #help" line), so it is kept.
    const titleOnly = level > 0 && (nextLevel === undefined || nextLevel <= level);
    if ((hasContent || titleOnly) && body !== '')
      sections.push({ heading: path.length > 0 ? path.join(' > ') : null, body });
    current = [];
    hasContent = false;
  };
  // Lines are read one by one rather than split all at once, so stopping early leaves the rest unread.
  for (let start = 0; start <= content.length;) {
    let end = content.indexOf('\n', start);
    if (end < 0) end = content.length;
    const line = content.slice(start, end < content.length && content.charCodeAt(end - 1) === 13 ? end - 1 : end);
    start = end + 1;
    // Blank lines, the bulk of some documents, can be neither a fence nor a heading.
    if (line === '') {
      current.push(line);
      continue;
    }
    if (FENCE.test(line)) inFence = !inFence;
    const heading = inFence ? undefined : parseHeading(line);
    if (heading !== undefined) {
      flush(heading.level);
      if (sections.length > stopAfter) return sections;
      level = heading.level;
      path.length = Math.min(path.length, heading.level - 1);
      path.push(heading.title);
      // The heading's words are part of the section's text, so BM25 finds the section by its title.
      current.push(heading.title);
      continue;
    }
    current.push(line);
    if (line.trim() !== '') hasContent = true;
  }
  flush();
  return sections;
}
