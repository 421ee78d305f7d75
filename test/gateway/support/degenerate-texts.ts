/** `unit` repeated to exactly `length` characters (`. . .`, `x\n\nx\n\n`): the inputs that once slowed chunking. */
export const fill = (unit: string, length: number): string =>
  unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

const WORDS = ['policy', 'employees', 'receive', 'annual', 'leave', 'the', 'office', 'opens', 'at', 'seven', 'late'];

/** Ordinary words of about `length` characters, the same on every call: what degenerate texts are timed against. */
export const ordinaryWords = (length: number): string => {
  const words: string[] = [];
  for (let i = 0, total = 0; total < length; i += 1) {
    const word = WORDS[(i * 7 + (i >> 3)) % WORDS.length]!;
    words.push(word);
    total += word.length + 1;
  }
  return words.join(' ').slice(0, length);
};
