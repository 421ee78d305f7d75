import { useRef, type KeyboardEvent } from 'react';

/** One option of a segmented control. */
export interface SegmentOption<T extends string> {
  readonly value: T;
  readonly label: string;
}

/** How far each key moves the choice: to the next or previous option, or to the first or last. */
function target(key: string, index: number, count: number): number | undefined {
  switch (key) {
    case 'ArrowRight':
    case 'ArrowDown':
      return (index + 1) % count;
    case 'ArrowLeft':
    case 'ArrowUp':
      return (index - 1 + count) % count;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return undefined;
  }
}

/**
 * A small group of mutually exclusive choices (split / unified, grouping, ranges), as a radio group:
 * one tab stop (the checked option), arrows choose the next or previous option (wrapping), Home and
 * End the first and last.
 */
export function Segmented<T extends string>({
  options,
  value,
  onChange,
  label,
}: {
  readonly options: readonly SegmentOption<T>[];
  readonly value: T;
  readonly onChange: (value: T) => void;
  readonly label: string;
}) {
  const group = useRef<HTMLDivElement>(null);
  const checked = Math.max(
    0,
    options.findIndex((option) => option.value === value),
  );
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number): void => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const next = target(event.key, index, options.length);
    if (next === undefined) return;
    // The page would scroll on arrows otherwise, and lists around the group must not move too.
    event.preventDefault();
    event.stopPropagation();
    group.current?.querySelectorAll<HTMLElement>('[role="radio"]')[next]?.focus();
    if (options[next]!.value !== value) onChange(options[next]!.value);
  };
  return (
    <div className="segmented" role="radiogroup" aria-label={label} ref={group}>
      {options.map((option, index) => (
        <button
          key={option.value}
          type="button"
          role="radio"
          aria-checked={option.value === value}
          // Roving tab stop: Tab enters and leaves the group in one step, on the checked option.
          tabIndex={index === checked ? 0 : -1}
          className={option.value === value ? 'segmented-item is-active' : 'segmented-item'}
          onClick={() => onChange(option.value)}
          onKeyDown={(event) => onKeyDown(event, index)}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}
