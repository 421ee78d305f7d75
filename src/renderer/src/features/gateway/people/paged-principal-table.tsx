import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { useEffect, useId, useState, type ReactNode } from 'react';
import type { TeamRecord, UserRecord } from '../../../../../shared/principals-api.js';
import { updateSearch } from '../../../app/router.js';
import { Button } from '../../../components/button.js';
import { DataTable, type Column } from '../../../components/data-table.js';
import { EmptyState, ErrorMessage, Loading } from '../../../components/feedback.js';
import { formatInt, plural } from '../../../lib/format.js';
import { principalMatches } from './principal-filter.js';

/** What the list of one kind says of itself: "3 of 40 users", the grid's name, the table's test id. */
interface ListWords {
  /** Singular: "user", "team". */
  readonly noun: string;
  readonly label: string;
  readonly testId: string;
}

/** How many there are, as the status beside the filter says it; "so far" while pages are still unread. */
function countText(matching: number, loaded: number, complete: boolean, noun: string): string {
  const total = `${plural(loaded, noun)}${complete ? '' : ' so far'}`;
  return matching === loaded ? total : `${formatInt(matching)} of ${total}`;
}

/**
 * A page-at-a-time list of users or teams, narrowed by the screen's filter: the first page is read and
 * drawn, Show more reads the next. A filter needs every record (the admin API has no search), so while
 * one is typed the pages left are read too: a match on a later page is not missed.
 */
export function PagedPrincipalTable<T extends TeamRecord | UserRecord>({
  query,
  filter,
  words,
  columns,
  onOpen,
  emptyList,
  autoFocus,
  removedKey,
}: {
  readonly query: UseInfiniteQueryResult<InfiniteData<{ readonly data: T[]; readonly next_cursor: string | null }>>;
  readonly filter: string;
  readonly words: ListWords;
  readonly columns: readonly Column<T>[];
  readonly onOpen: (record: T) => void;
  /** What shows when there is none at all. */
  readonly emptyList: ReactNode;
  readonly autoFocus?: boolean;
  /** The record the user's last delete removed: its neighbour is highlighted (see DataTable). */
  readonly removedKey?: string;
}) {
  const statusId = useId();
  const [firstAdded, setFirstAdded] = useState<{ readonly key: string }>();
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const filtering = filter.trim() !== '';
  useEffect(() => {
    if (filtering && hasNextPage && !isFetchingNextPage && !query.isError) void fetchNextPage();
  }, [filtering, hasNextPage, isFetchingNextPage, fetchNextPage, query.isError]);

  if (query.isPending) return <Loading />;
  if (query.isError && !query.data)
    return (
      <ErrorMessage
        error={query.error}
        title={`Could not load the ${words.noun}s`}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  const loaded = query.data?.pages.flatMap((page) => page.data) ?? [];
  if (loaded.length === 0 && !hasNextPage) return <>{emptyList}</>;
  const rows = loaded.filter((record) => principalMatches(record, filter));
  // Focus goes on to the first record the next page added, as the keyboard would read on (the button may be
  // gone by then: after the last page there is no more to show).
  const showMore = async (before: number): Promise<void> => {
    const first = (await fetchNextPage()).data?.pages.flatMap((page) => page.data)[before];
    if (first) setFirstAdded({ key: first.id });
  };
  return (
    <>
      <p className="muted" role="status" id={statusId} data-testid={`${words.testId}-count`}>
        {countText(rows.length, loaded.length, !hasNextPage, words.noun)}
      </p>
      {rows.length === 0 ? (
        !hasNextPage && (
          <EmptyState
            title={`No ${words.noun} matches “${filter.trim()}”`}
            action={
              <Button variant="secondary" onClick={() => updateSearch({ q: undefined })}>
                Clear the filter
              </Button>
            }
          >
            The filter looks in each {words.noun}'s id and name{words.noun === 'user' ? ', email and team' : ''}.
          </EmptyState>
        )
      ) : (
        <DataTable
          label={words.label}
          testId={words.testId}
          autoFocus={autoFocus}
          rows={rows}
          columns={columns}
          rowKey={(record) => record.id}
          onOpen={onOpen}
          focusRow={firstAdded}
          removedKey={removedKey}
        />
      )}
      {hasNextPage && !filtering && (
        <div className="table-more">
          {/* One name whatever the count, which the status above says. */}
          <Button aria-describedby={statusId} busy={isFetchingNextPage} onClick={() => void showMore(loaded.length)}>
            Show more {words.noun}s
          </Button>
        </div>
      )}
      {/* A later page (or a refresh) that failed leaves the records read so far on screen. */}
      {query.isError && (
        <ErrorMessage
          error={query.error}
          title={
            query.isFetchNextPageError ? `Could not load more ${words.noun}s` : `Could not refresh the ${words.noun}s`
          }
        />
      )}
    </>
  );
}
