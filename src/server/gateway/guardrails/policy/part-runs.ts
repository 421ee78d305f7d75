/** The texts of one content list's parts, joined, and the list's path (where a match is reported). */
export interface JoinedParts {
  readonly list: string;
  readonly joined: readonly string[];
}

/**
 * Text parts of one content list (`messages[2].content[0].text`, `messages[2].content[1].text`, ...)
 * reach the model as one text: a provider puts them side by side. A blocked phrase cut between two
 * parts matches neither alone, so the content policy also reads each list's parts joined.
 */
export class PartRuns {
  private list: string | undefined;
  private parts: string[] = [];

  /**
   * Adds a visited text. A part of another list first closes the open one: its joined texts are
   * returned, to be matched before this text is gathered. Texts that are no part (a citation between
   * two blocks, tool arguments) leave the open list as it is.
   */
  add(text: string, path: string): JoinedParts | undefined {
    const list = listOf(path);
    if (list === undefined) return undefined;
    const closed = list === this.list ? undefined : this.close();
    this.list = list;
    this.parts.push(text);
    return closed;
  }

  /** The joined texts of the open list and its path (the request's texts ended, or another list began). */
  close(): JoinedParts | undefined {
    const { parts, list } = this;
    this.list = undefined;
    this.parts = [];
    if (parts.length < 2 || list === undefined) return undefined;
    // Side by side, or a line apart, as providers differ: a pattern that matches either is refused.
    return { list, joined: [parts.join(''), parts.join('\n')] };
  }
}

/** A part's text in a content list: the list's path, then the part's index and its text field. */
const PART_TEXT = /^(.*)\[\d+\]\.(?:text|refusal)$/;

/** The path of the content list a text part belongs to; undefined for a text that is not a part. */
export function listOf(path: string): string | undefined {
  return PART_TEXT.exec(path)?.[1];
}
