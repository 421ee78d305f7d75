import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TrafficEvent } from '../../src/shared/gateway-api.js';
import { PUBLISH_INTERVAL_MS, TRAFFIC_CAPACITY, TrafficBuffer } from '../../src/renderer/src/api/traffic-buffer.js';

const event = (seq: number): TrafficEvent => ({
  seq,
  request_id: `r${seq}`,
  started_at: new Date(seq * 1000).toISOString(),
  endpoint: 'chat',
  method: 'POST',
  path: '/v1/chat/completions',
  status: 200,
  error_type: null,
  requested_model: 'demo/echo',
  model: 'demo/echo',
  deployment: null,
  provider: 'demo',
  key_id: 'k',
  key_name: 'key',
  user: null,
  team: null,
  stream: false,
  cached: false,
  attempts: 1,
  latency_ms: 1,
  prompt_tokens: 1,
  completion_tokens: 1,
  cost_usd: 0,
  request_body: null,
  response_body: null,
  truncated: false,
});

describe('TrafficBuffer', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('publishes a burst once, newest first, ignoring duplicates', () => {
    const buffer = new TrafficBuffer();
    const listener = vi.fn();
    buffer.subscribe(listener);
    for (let seq = 1; seq <= 200; seq++) buffer.add([event(seq)]);
    buffer.add([event(5)]);
    expect(listener).not.toHaveBeenCalled();
    vi.advanceTimersByTime(PUBLISH_INTERVAL_MS);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(buffer.snapshot()).toHaveLength(200);
    expect(buffer.snapshot()[0]!.seq).toBe(200);
    expect(buffer.lastSeq()).toBe(200);
  });

  it('says it is connected only together with the events queued before, never ahead of them', () => {
    const buffer = new TrafficBuffer();
    buffer.add([event(1), event(2)]);
    buffer.setConnected(true);
    // A render now (for any other reason) must not see "Live" over an empty list.
    expect(buffer.connected).toBe(false);
    expect(buffer.snapshot()).toHaveLength(0);
    vi.advanceTimersByTime(PUBLISH_INTERVAL_MS);
    expect(buffer.connected).toBe(true);
    expect(buffer.snapshot()).toHaveLength(2);
    buffer.setConnected(false);
    expect(buffer.connected).toBe(true);
    vi.advanceTimersByTime(PUBLISH_INTERVAL_MS);
    expect(buffer.connected).toBe(false);
  });

  it('merges late (backfilled) events in order and keeps at most the capacity', () => {
    const buffer = new TrafficBuffer();
    buffer.add([event(10), event(11)]);
    vi.advanceTimersByTime(PUBLISH_INTERVAL_MS);
    buffer.add([event(3), event(12)]);
    vi.advanceTimersByTime(PUBLISH_INTERVAL_MS);
    expect(buffer.snapshot().map((e) => e.seq)).toEqual([12, 11, 10, 3]);

    buffer.add(Array.from({ length: TRAFFIC_CAPACITY + 10 }, (_, index) => event(100 + index)));
    vi.advanceTimersByTime(PUBLISH_INTERVAL_MS);
    expect(buffer.snapshot()).toHaveLength(TRAFFIC_CAPACITY);
    expect(buffer.snapshot().at(-1)!.seq).toBe(110);
  });
});
