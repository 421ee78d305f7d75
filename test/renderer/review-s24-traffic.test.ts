import { describe, expect, it } from 'vitest';
import { TrafficBuffer } from '../../src/renderer/src/api/traffic-buffer.js';
import {
  filterFromSearch,
  filterToSearch,
  NO_FILTER,
  type TrafficFilter,
} from '../../src/renderer/src/features/gateway/traffic-filter.js';
import type { TrafficEvent } from '../../src/shared/gateway-api.js';

const event = (seq: number) => ({ seq, request_id: `r${seq}` }) as TrafficEvent;

describe('traffic buffer: where the live stream resumes', () => {
  it('after a backfill still queued (newest first), resumes after its newest request, not its oldest', () => {
    const buffer = new TrafficBuffer();
    buffer.add([event(30), event(20), event(10)]);
    expect(buffer.lastSeq()).toBe(30);
  });
});

describe('traffic filter in the address', () => {
  const search = (filter: TrafficFilter): URLSearchParams => {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(filterToSearch(filter)))
      if (value !== undefined) params.set(name, value);
    return params;
  };

  it('round-trips every filter, and no filter is an address without values', () => {
    const filter: TrafficFilter = { text: 'gpt 4o & co', status: 'client', model: 'openai/gpt-4o', key: 'key_abc' };
    expect(filterFromSearch(search(filter))).toEqual(filter);
    expect(search(NO_FILTER).toString()).toBe('');
    expect(filterFromSearch(new URLSearchParams())).toEqual(NO_FILTER);
  });

  it('reads a status it does not know as every status', () => {
    expect(filterFromSearch(new URLSearchParams('status=teapot')).status).toBe('all');
    expect(filterFromSearch(new URLSearchParams('status=constructor')).status).toBe('all');
  });
});
