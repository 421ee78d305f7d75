import { describe, expect, it } from 'vitest';
import { TrafficBuffer } from '../../src/renderer/src/api/traffic-buffer.js';
import {
  failed,
  filterFromSearch,
  filterToSearch,
  matches,
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

describe('traffic status filter: a stream that failed after its 200', () => {
  const base = { ...event(1), status: 200, error_type: null } as TrafficEvent;
  const failedStream = { ...base, stream: true, error_type: 'upstream_error' } as TrafficEvent;
  const refused = { ...base, status: 429, error_type: 'rate_limit_exceeded' } as TrafficEvent;
  const only = (status: TrafficFilter['status'], list: readonly TrafficEvent[]) =>
    list.filter((item) => matches(item, { ...NO_FILTER, status }));

  it('is a failure: under Failed, not under Success', () => {
    expect(failed(failedStream)).toBe(true);
    expect(only('ok', [base, failedStream, refused])).toEqual([base]);
    expect(only('failed', [base, failedStream, refused])).toEqual([failedStream, refused]);
  });

  it('keeps 4xx and 5xx to the status codes', () => {
    expect(only('client', [base, failedStream, refused])).toEqual([refused]);
    expect(only('server', [base, failedStream, refused])).toEqual([]);
  });
});
