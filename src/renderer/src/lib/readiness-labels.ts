/**
 * Words for the readiness checks a service reports on `/readyz`. The API names them as identifiers
 * (`rag_index`) and states (`ok`); people read labels.
 */
const CHECK_LABELS: Readonly<Record<string, string>> = {
  database: 'Database',
  rag_index: 'RAG index',
};

const STATE_LABELS: Readonly<Record<string, string>> = {
  ok: 'Ready',
  unavailable: 'Unavailable',
};

/** An identifier as words, for a check or state the UI has no label for yet: `search_index` -> "Search index". */
function humanize(identifier: string): string {
  const words = identifier
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_.-]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The label of a readiness check, by its name in the API. */
export function readinessCheckLabel(name: string): string {
  return CHECK_LABELS[name] ?? humanize(name);
}

/** The label of a readiness check's state, by its value in the API. */
export function readinessStateLabel(state: string): string {
  return STATE_LABELS[state] ?? humanize(state);
}
