import { useMemo, type RefObject } from 'react';
import { VisibleName } from '../../components/diff/visible-text.js';
import { EmptyState } from '../../components/feedback.js';
import { TextInput } from '../../components/field.js';
import { FilesIcon } from '../../components/icons.js';
import { VirtualList } from '../../components/virtual-list.js';
import { nameText } from '../../lib/invisible-chars.js';

/** The id (and test id) of the documents' list, which the filter controls. */
export const DOCUMENT_LIST_ID = 'document-list';

/** The keys that contain the filter, ignoring case (every key when the filter is empty). */
export function useFilteredKeys(keys: readonly string[], filter: string): readonly string[] {
  return useMemo(() => {
    const wanted = filter.toLowerCase();
    return wanted ? keys.filter((key) => key.toLowerCase().includes(wanted)) : keys;
  }, [keys, filter]);
}

/**
 * The filter and the list of keys it leaves, which it controls as a combobox does its listbox: from the
 * filter, ArrowDown moves into the list on the first match and Enter opens the first match. The list takes focus only
 * when asked (`focusToken`: a new number each time; `true` when its rows arrive, unless focus is
 * elsewhere on the screen), never because the filter made it reappear while the user is typing.
 */
export function DocumentKeyList({
  keys,
  shown,
  filter,
  onFilter,
  selectedKey,
  onSelect,
  focusToken,
  onFocusList,
  filterRef,
}: {
  readonly keys: readonly string[];
  readonly shown: readonly string[];
  readonly filter: string;
  readonly onFilter: (filter: string) => void;
  readonly selectedKey: string | undefined;
  readonly onSelect: (key: string) => void;
  readonly focusToken: number | boolean;
  readonly onFocusList: () => void;
  readonly filterRef: RefObject<HTMLInputElement | null>;
}) {
  const selectedIndex = selectedKey === undefined ? -1 : shown.indexOf(selectedKey);
  const first = shown[0];
  return (
    <section className="split-list">
      <div className="split-list-header">
        <TextInput
          ref={filterRef}
          className="filter-input"
          placeholder="Filter keys  /"
          aria-label="Filter keys"
          aria-controls={first === undefined ? undefined : DOCUMENT_LIST_ID}
          title="↓ moves to the matching keys, Enter opens the first"
          value={filter}
          onChange={(event) => onFilter(event.target.value)}
          onKeyDown={(event) => {
            // An input method composing a character uses Enter and the arrows itself.
            if (event.nativeEvent.isComposing) return;
            if ((event.key !== 'ArrowDown' && event.key !== 'Enter') || first === undefined) return;
            event.preventDefault();
            onSelect(first);
            onFocusList();
          }}
        />
      </div>
      {first === undefined ? (
        <EmptyState title={keys.length ? 'No key matches the filter' : 'No documents at this revision'} />
      ) : (
        <VirtualList
          label="Documents"
          testId={DOCUMENT_LIST_ID}
          count={shown.length}
          rowHeight={32}
          autoFocus={focusToken}
          selected={selectedIndex}
          onSelect={(index) => onSelect(shown[index]!)}
          rowKey={(index) => shown[index]!}
          rowLabel={(index) => nameText(shown[index]!)}
          renderRow={(index) => (
            <div className="change-row" title={nameText(shown[index]!)}>
              <FilesIcon size={14} className="muted" />
              <span className="change-row-key">
                <VisibleName text={shown[index]!} />
              </span>
            </div>
          )}
        />
      )}
    </section>
  );
}
