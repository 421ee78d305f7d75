import { useState } from 'react';
import { useApiKeys } from '../../api/gateway-queries.js';
import { Badge } from '../../components/badge.js';
import { Button } from '../../components/button.js';
import { ErrorMessage } from '../../components/feedback.js';
import { Field, Select, TextInput } from '../../components/field.js';
import { SearchIcon } from '../../components/icons.js';
import { useRagSearch } from './rag-queries.js';

/** What a given key would retrieve for a question: the same access rules, ranking and redaction as a request. */
export function SearchPanel({ collection }: { readonly collection: string }) {
  const keys = useApiKeys(false);
  const search = useRagSearch();
  const [query, setQuery] = useState('');
  const [keyId, setKeyId] = useState('');
  const result = search.data;
  return (
    <section className="panel" data-testid="rag-search">
      <form
        className="form-grid"
        onSubmit={(event) => {
          event.preventDefault();
          search.mutate({ query, collections: [collection], ...(keyId ? { key_id: keyId } : {}) });
        }}
      >
        <Field label="Question" htmlFor="rag-query">
          <TextInput id="rag-query" required value={query} onChange={(event) => setQuery(event.target.value)} />
        </Field>
        <Field label="As key" htmlFor="rag-key" hint="Empty: the admin's view (every chunk).">
          <Select id="rag-key" value={keyId} onChange={(event) => setKeyId(event.target.value)}>
            <option value="">Admin (no key)</option>
            {keys.data?.data.map((key) => (
              <option key={key.id} value={key.id}>
                {key.name ?? key.key_prefix} {key.team ? `(${key.team})` : ''}
              </option>
            ))}
          </Select>
        </Field>
        <div className="form-span">
          <Button type="submit" icon={<SearchIcon />} busy={search.isPending}>
            Search
          </Button>
        </div>
      </form>
      {search.error && <ErrorMessage error={search.error} title="Search failed" />}
      {result && result.denied.length > 0 && (
        <p className="muted" data-testid="rag-denied">
          This key may not read {result.denied.join(', ')}: nothing from it would be retrieved.
        </p>
      )}
      {result && result.denied.length === 0 && result.hits.length === 0 && <p className="muted">No chunk matches.</p>}
      <ol className="rag-hits" data-testid="rag-hits">
        {result?.hits.map((hit, index) => (
          <li key={hit.id} className="rag-hit" data-testid="rag-hit">
            <div className="chip-row">
              <Badge>[{index + 1}]</Badge>
              <span className="mono">{hit.citation}</span>
              <span>{hit.heading ? `${hit.document_key} > ${hit.heading}` : hit.document_key}</span>
              <span className="muted">
                score {hit.score.toFixed(4)} · BM25 #{hit.bm25_rank ?? '–'} · vector #{hit.vector_rank ?? '–'}
              </span>
            </div>
            {/* A long hit scrolls: a named region in the tab order, so the keyboard can scroll it too. */}
            <pre className="rag-text" tabIndex={0} role="region" aria-label={`Hit ${index + 1} text`}>
              {hit.text}
            </pre>
          </li>
        ))}
      </ol>
    </section>
  );
}
