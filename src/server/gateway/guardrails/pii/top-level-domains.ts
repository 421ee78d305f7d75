/**
 * Generic top-level domains of three letters or more that addresses commonly end with: a cut can leave
 * one short (`.c` + `om` is `.com`); two-letter country codes are whole already. A rarer one cut short is read as the address the part holds, so the part after keeps its
 * last letters; no personal data is in them.
 */
const TOP_LEVEL_DOMAINS: ReadonlySet<string> = new Set([
  ...['com', 'org', 'net', 'edu', 'gov', 'mil', 'int', 'info', 'biz', 'name', 'pro', 'mobi', 'asia', 'aero'],
  ...['coop', 'museum', 'travel', 'jobs', 'tel', 'cat', 'post', 'app', 'dev', 'page', 'blog', 'cloud', 'email'],
  ...['online', 'site', 'website', 'shop', 'store', 'tech', 'xyz', 'top', 'club', 'live', 'news', 'art'],
  ...['design', 'agency', 'company', 'digital', 'media', 'studio', 'world', 'life', 'today', 'space', 'group'],
  ...['global', 'network', 'systems', 'solutions', 'services', 'support', 'team', 'zone', 'host', 'link'],
  ...['one', 'ltd', 'llc', 'inc', 'law', 'bank', 'health', 'care', 'eco', 'energy', 'finance', 'capital'],
  ...['consulting', 'academy', 'school', 'university', 'church', 'foundation', 'social', 'works', 'work'],
  ...['family', 'city', 'berlin', 'london', 'nyc', 'paris', 'tokyo', 'swiss', 'bayern', 'wien', 'quebec'],
  ...['google', 'apple', 'microsoft', 'amazon', 'gmbh', 'ngo', 'onl', 'wiki', 'fun', 'icu', 'vip', 'win'],
  ...['рус', 'орг', 'ком', 'онлайн', 'сайт', 'москва', 'укр', 'бел', 'срб', 'мкд', 'қаз'],
]);

const DOT = /[.．]/;
const INVISIBLE = /\p{Cf}/gu;

/**
 * Whether `runOn`, the start of the part after one that ends with the whole address `address`, goes on
 * with its domain rather than beginning a word of its own: it starts with a dot (`.co` + `.uk`), or it
 * completes the last label to a top-level domain that the address's own last label is a cut of
 * (`example.c` + `om please`). A last label that is a top-level domain already (any two letters, a
 * country's; or one of the list) is read apart: `example.de` + `sign here` is an address and a word,
 * not `example.design`, and read apart a cut one loses no personal data, only a letter to the next part.
 * A domain's letters do not change case mid-way (`example.comThanks`).
 */
export function completesTopLevelDomain(address: string, runOn: string): boolean {
  if (DOT.test(runOn[0] ?? '')) return true;
  const own = lastLabel(address).normalize('NFKC').replace(INVISIBLE, '').toLowerCase();
  if (own.length === 2 || TOP_LEVEL_DOMAINS.has(own)) return false;
  const label = lastLabel(address) + (runOn.split(DOT)[0] ?? '');
  const plain = label.normalize('NFKC').replace(INVISIBLE, '');
  const lower = plain.toLowerCase();
  if (plain !== lower && plain !== plain.toUpperCase()) return false;
  return TOP_LEVEL_DOMAINS.has(lower);
}

function lastLabel(address: string): string {
  const parts = address.split(DOT);
  return parts[parts.length - 1]!;
}
