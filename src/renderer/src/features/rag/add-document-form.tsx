import { useState } from 'react';
import { Button } from '../../components/button.js';
import { ErrorMessage } from '../../components/feedback.js';
import { Field, Select, TextArea, TextInput } from '../../components/field.js';
import { PlusIcon } from '../../components/icons.js';
import { showToast } from '../../components/toast.js';
import { useIngestDocument } from './rag-queries.js';

/** Ingests a text or Markdown document into a collection (replacing one with the same key). */
export function AddDocumentForm({ collection }: { readonly collection: string }) {
  const ingest = useIngestDocument(collection);
  const [key, setKey] = useState('');
  const [content, setContent] = useState('');
  const [type, setType] = useState<'text' | 'markdown'>('markdown');
  return (
    <form
      className="form-grid"
      data-testid="add-document"
      onSubmit={(event) => {
        event.preventDefault();
        ingest.mutate(
          { key, content, content_type: type },
          {
            onSuccess: (document) => {
              showToast(`Indexed ${document.key}: ${document.chunks} chunks`);
              setKey('');
              setContent('');
            },
          },
        );
      }}
    >
      <Field label="Document key" htmlFor="document-key">
        <TextInput id="document-key" required value={key} onChange={(event) => setKey(event.target.value)} />
      </Field>
      <Field label="Format" htmlFor="document-type">
        <Select
          id="document-type"
          value={type}
          onChange={(event) => setType(event.target.value as 'text' | 'markdown')}
        >
          <option value="markdown">Markdown</option>
          <option value="text">Text</option>
        </Select>
      </Field>
      <div className="form-span">
        <Field label="Content" htmlFor="document-content">
          <TextArea
            id="document-content"
            rows={6}
            required
            value={content}
            onChange={(event) => setContent(event.target.value)}
          />
        </Field>
      </div>
      <div className="form-span">
        <Button type="submit" variant="primary" icon={<PlusIcon />} busy={ingest.isPending}>
          Add document
        </Button>
      </div>
      {ingest.error && <ErrorMessage error={ingest.error} title="Could not add the document" />}
    </form>
  );
}
