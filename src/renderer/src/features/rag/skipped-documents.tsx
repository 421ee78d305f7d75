import type { RagCollection } from '../../../../shared/rag-api.js';
import { AlertIcon } from '../../components/icons.js';
import { plural } from '../../lib/format.js';

/**
 * The documents of a collection's store source that its last sync could not index (too many chunks),
 * each with why: retrieval does not find them, and nothing else on the screen would say so.
 */
export function SkippedDocuments({ collection }: { readonly collection: RagCollection }) {
  const skipped = collection.skipped_documents;
  if (skipped.length === 0 || !collection.source) return null;
  const title = `${plural(skipped.length, 'document')} of ${collection.source.namespace}@${collection.source.branch} ${
    skipped.length === 1 ? 'is' : 'are'
  } not indexed`;
  return (
    <section className="error-message" aria-label={title} data-testid="rag-skipped-documents">
      <AlertIcon className="error-message-icon" />
      <div className="error-message-body">
        <div className="error-message-title">{title}</div>
        <ul className="error-message-text">
          {skipped.map((document) => (
            <li key={document.key}>
              <span className="mono">{document.key}</span>: {document.reason}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
