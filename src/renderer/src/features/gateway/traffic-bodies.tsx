import type { TrafficEvent } from '../../../../shared/gateway-api.js';
import { bodiesDropped } from '../../api/traffic-queries.js';
import { CopyButton } from '../../components/copy-button.js';
import { ErrorMessage, Loading } from '../../components/feedback.js';
import { AlertIcon } from '../../components/icons.js';
import { transcriptEvents } from '../../lib/stream-transcript.js';

function pretty(body: unknown): string {
  if (body === null || body === undefined) return '';
  return typeof body === 'string' ? body : JSON.stringify(body, null, 2);
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function Body({
  title,
  what,
  body,
  note,
}: {
  readonly title: string;
  readonly what: string;
  readonly body: unknown;
  /** What the body is, when the title alone would mislead. */
  readonly note?: string;
}) {
  const text = pretty(body);
  return (
    <section className="drawer-section">
      <div className="drawer-section-header">
        <span className="section-title">{title}</span>
        {text && <CopyButton text={text} what={what} variant="ghost" />}
      </div>
      {note && <p className="muted drawer-section-note">{note}</p>}
      {text ? (
        // A focusable, named region, so a keyboard scrolls it in every browser (Firefox and Safari focus
        // no plain pre) and a screen reader says what it is on the way in (a bare pre may not be named).
        <pre className="code-block code-block-scroll" tabIndex={0} role="region" aria-label={capitalise(what)}>
          {text}
        </pre>
      ) : (
        <p className="muted">No body recorded.</p>
      )}
    </section>
  );
}

/** A recorded stream as its events, one per line: name and what it carried. */
function StreamEvents({ body }: { readonly body: unknown }) {
  const events = typeof body === 'string' ? transcriptEvents(body) : undefined;
  if (events === undefined || events.length === 0) return null;
  return (
    <section className="drawer-section" data-testid="stream-events">
      <div className="drawer-section-header">
        <span className="section-title">Stream events ({events.length})</span>
      </div>
      <ol className="code-block code-block-scroll stream-events" tabIndex={0} aria-label="Stream events">
        {events.map((event, index) => (
          <li key={index}>
            <span className="mono">{event.name}</span> {event.summary}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** The state of the read of one request's bodies, as the drawer has it. */
export interface BodiesRead {
  /** The request with its bodies, once read. */
  readonly full: TrafficEvent | undefined;
  readonly error: unknown;
  readonly retry: () => void;
  readonly retrying: boolean;
}

/**
 * The request and response bodies of the drawer's request, read by its number when the drawer opens
 * (the list holds none). `scrubbed`: what the PII stage did, which changes what the bodies are.
 */
export function TrafficBodies({
  event,
  read,
  scrubbed,
}: {
  readonly event: TrafficEvent;
  readonly read: BodiesRead;
  readonly scrubbed: 'mask' | 'redact' | undefined;
}) {
  if (read.full === undefined && bodiesDropped(read.error))
    return (
      <div className="notice notice-warning" role="status" data-testid="traffic-bodies-dropped">
        <AlertIcon />
        <span>
          The bodies of request <span className="mono">{event.request_id}</span> are no longer kept: the gateway holds
          only its newest requests (<span className="mono">gateway.traffic_buffer</span>), and this one has left them.
          What this view kept of it is shown above.
        </span>
      </div>
    );
  if (read.full === undefined && read.error)
    return (
      <ErrorMessage
        error={read.error}
        title="The bodies could not be read"
        onRetry={read.retry}
        retrying={read.retrying}
      />
    );
  if (read.full === undefined) return <Loading label="Loading the bodies…" />;
  const { request_body: request, response_body: response } = read.full;
  return (
    <>
      {scrubbed ? (
        <Body
          title="Request (as forwarded, scrubbed)"
          what="request body"
          body={request}
          note={`The PII stage ${scrubbed === 'mask' ? 'masked' : 'redacted'} what it found: this is the body with placeholders, as the provider saw it; the client sent the real values, which are not kept.`}
        />
      ) : (
        <Body
          title="Request (as received, with the gateway's rewrites)"
          what="request body"
          body={request}
          note="The client's body with the routed model and a capped max_tokens. What the provider received (its own model name, the stream options the gateway adds) is not kept."
        />
      )}
      <StreamEvents body={response} />
      {scrubbed === 'mask' ? (
        <Body
          title="Response (as the provider sent it, before restoration)"
          what="response body"
          body={response}
          note="With the placeholders the provider saw: the client got its real values back in their place."
        />
      ) : (
        <Body title="Response" what="response body" body={response} />
      )}
    </>
  );
}
