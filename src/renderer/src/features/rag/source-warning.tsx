import type { RagCollection } from '../../../../shared/rag-api.js';
import { AlertIcon } from '../../components/icons.js';

/**
 * Why a collection's store source gives it no documents: the followed namespace or branch does not
 * exist (not written yet, deleted, or misspelt). The collection would otherwise sit empty with nothing
 * on the screen to say why.
 */
export function SourceWarning({ collection }: { readonly collection: RagCollection }) {
  if (collection.source_warning === null || !collection.source) return null;
  const title = `${collection.source.namespace}@${collection.source.branch} gives this collection no documents`;
  return (
    <section className="error-message" aria-label={title} data-testid="rag-source-warning">
      <AlertIcon className="error-message-icon" />
      <div className="error-message-body">
        <div className="error-message-title">{title}</div>
        <p className="error-message-text">{collection.source_warning}</p>
      </div>
    </section>
  );
}
