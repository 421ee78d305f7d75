import type { RefObject } from 'react';
import { Button } from '../../components/button.js';
import { StatusDot } from '../../components/badge.js';
import { Select, TextInput } from '../../components/field.js';
import { PauseIcon, PlayIcon } from '../../components/icons.js';
import { formatInt, plural } from '../../lib/format.js';
import type { TrafficFilter } from './traffic-filter.js';

/** Live state, pause / resume, and the filters of the traffic view. */
export function TrafficToolbar({
  connected,
  paused,
  newCount,
  onTogglePause,
  filter,
  onFilter,
  models,
  keys,
  shown,
  total,
  filterRef,
  listId,
  onEnterList,
}: {
  readonly connected: boolean;
  readonly paused: boolean;
  readonly newCount: number;
  readonly onTogglePause: () => void;
  readonly filter: TrafficFilter;
  readonly onFilter: (filter: TrafficFilter) => void;
  readonly models: readonly string[];
  readonly keys: readonly { readonly id: string; readonly name: string }[];
  readonly shown: number;
  readonly total: number;
  readonly filterRef: RefObject<HTMLInputElement | null>;
  /** The id of the list the filter narrows. */
  readonly listId: string;
  /** ↓ or Enter in the filter: into the list on its first match (`open`: Enter, which also opens it). */
  readonly onEnterList: (open: boolean) => void;
}) {
  return (
    <header className="toolbar toolbar-wrap traffic-toolbar">
      {/* A status (polite), so a dropped stream or what arrived while paused is heard; each request is not. */}
      <span className="live-state" role="status" data-testid="live-state">
        <StatusDot tone={!connected ? 'danger' : paused ? 'warning' : 'success'} />
        {!connected ? 'Reconnecting…' : paused ? `Paused${newCount ? ` · ${formatInt(newCount)} new` : ''}` : 'Live'}
      </span>
      <Button
        size="sm"
        icon={paused ? <PlayIcon /> : <PauseIcon />}
        onClick={onTogglePause}
        title={
          paused
            ? 'Show the requests that arrived while paused, and new ones as they come (Space)'
            : 'Freeze the list; requests keep arriving and are shown on Resume (Space)'
        }
        data-testid="pause-traffic"
      >
        {paused ? 'Resume' : 'Pause'}
      </Button>
      <TextInput
        ref={filterRef}
        className="filter-input"
        placeholder="Filter: model, key, path, request id  /"
        aria-label="Filter requests"
        aria-controls={listId}
        title="↓ moves to the matching requests, Enter opens the first"
        value={filter.text}
        onChange={(event) => onFilter({ ...filter, text: event.target.value })}
        onKeyDown={(event) => {
          // An input method composing a character uses Enter and the arrows itself.
          if (event.nativeEvent.isComposing || shown === 0) return;
          if (event.key !== 'ArrowDown' && event.key !== 'Enter') return;
          event.preventDefault();
          onEnterList(event.key === 'Enter');
        }}
      />
      <Select
        aria-label="Status"
        value={filter.status}
        onChange={(event) => onFilter({ ...filter, status: event.target.value as TrafficFilter['status'] })}
      >
        <option value="all">All statuses</option>
        <option value="ok">Success</option>
        <option value="failed">Failed</option>
        <option value="client">4xx</option>
        <option value="server">5xx</option>
      </Select>
      <Select
        aria-label="Model"
        // A long name is cut short in the closed filter: the whole of it is its tooltip.
        title={filter.model || undefined}
        value={filter.model}
        onChange={(event) => onFilter({ ...filter, model: event.target.value })}
      >
        <option value="">All models</option>
        {models.map((model) => (
          <option key={model} value={model}>
            {model}
          </option>
        ))}
      </Select>
      <Select
        aria-label="Key"
        title={keys.find((key) => key.id === filter.key)?.name}
        value={filter.key}
        onChange={(event) => onFilter({ ...filter, key: event.target.value })}
      >
        <option value="">All keys</option>
        {keys.map((key) => (
          <option key={key.id} value={key.id}>
            {key.name}
          </option>
        ))}
      </Select>
      {/* A status, as Keys' count, found as one; heard only while paused (a filter's effect then), since
          while live it changes with every request, which the live state above deliberately does not say. */}
      <span
        className="muted toolbar-end"
        role="status"
        aria-live={paused ? 'polite' : 'off'}
        data-testid="traffic-count"
      >
        {shown === total ? plural(total, 'request') : `${formatInt(shown)} of ${plural(total, 'request')}`}
      </span>
    </header>
  );
}
