import { useLayoutEffect, useRef, useState } from 'react';

/**
 * A revision message split as git splits a commit message: the first line is the title, the lines
 * after it (less the blank line that usually separates them) the body.
 */
export function splitMessage(message: string): { readonly title: string; readonly body: string } {
  const newline = message.indexOf('\n');
  if (newline < 0) return { title: message.trimEnd(), body: '' };
  return {
    title: message.slice(0, newline).trimEnd(),
    body: message
      .slice(newline + 1)
      .replace(/^\s*\n/, '')
      .trimEnd(),
  };
}

/** The title of a message for one line of prose (a dialog's description), cut at `max` characters. */
export function messageSummary(message: string, max = 120): string {
  const { title } = splitMessage(message);
  return title.length > max ? `${title.slice(0, max - 1)}…` : title;
}

/** Whether an element's text runs past its clamped height. */
const overflows = (element: HTMLElement | null): boolean =>
  !!element && element.scrollHeight > element.clientHeight + 1;

/**
 * A revision's message as GitHub Desktop shows a commit's: the first line as the heading and the rest
 * as a body with its line breaks, each clamped to a few lines with "Show more", so a message of
 * thousands of characters does not push the diff out of the window.
 */
export function RevisionMessage({ message }: { readonly message: string }) {
  const { title, body } = splitMessage(message);
  const [expanded, setExpanded] = useState(false);
  const [clamped, setClamped] = useState(false);
  const titleRef = useRef<HTMLHeadingElement>(null);
  const bodyRef = useRef<HTMLParagraphElement>(null);
  useLayoutEffect(() => {
    if (expanded) return;
    const measure = (): void => setClamped(overflows(titleRef.current) || overflows(bodyRef.current));
    measure();
    // A narrower pane wraps the same text onto more lines.
    const observer = new ResizeObserver(measure);
    if (titleRef.current) observer.observe(titleRef.current);
    return () => observer.disconnect();
  }, [expanded, title, body]);
  const state = expanded ? 'is-expanded' : 'is-clamped';
  return (
    <div className="revision-message" data-testid="revision-message">
      <h2 ref={titleRef} className={`revision-title ${state}`}>
        {title || '(no message)'}
      </h2>
      {body && (
        <p ref={bodyRef} className={`revision-body ${state}`} data-testid="revision-body">
          {body}
        </p>
      )}
      {(clamped || expanded) && (
        <button
          type="button"
          className="revision-message-more"
          aria-expanded={expanded}
          onClick={() => setExpanded(!expanded)}
        >
          {expanded ? 'Show less' : 'Show more'}
        </button>
      )}
    </div>
  );
}
