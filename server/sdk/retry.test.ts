import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_POLICY, parseRetryAfterMs, retryDelayMs } from './retry.ts';

describe('retryDelayMs', () => {
  it('backs off 1 s, 2 s, 4 s without jitter at the midpoint', () => {
    expect([1, 2, 3].map((retry) => retryDelayMs(retry, null, DEFAULT_RETRY_POLICY, () => 0.5))).toEqual([
      1000, 2000, 4000,
    ]);
  });

  it('moves each delay by at most 20 % either way', () => {
    expect(retryDelayMs(1, null, DEFAULT_RETRY_POLICY, () => 0)).toBe(800);
    expect(retryDelayMs(1, null, DEFAULT_RETRY_POLICY, () => 0.999999)).toBe(1200);
    expect(retryDelayMs(3, null, DEFAULT_RETRY_POLICY, () => 0)).toBe(3200);
  });

  it('never waits more than 30 s', () => {
    expect(retryDelayMs(10, null, DEFAULT_RETRY_POLICY, () => 0.999)).toBe(30_000);
  });

  it('waits exactly what Retry-After says, without jitter', () => {
    expect(retryDelayMs(1, 60_000, DEFAULT_RETRY_POLICY, () => 0)).toBe(60_000);
    expect(retryDelayMs(2, 0, DEFAULT_RETRY_POLICY, () => 0)).toBe(0);
  });

  it('gives up (null) on a Retry-After beyond maxRetryAfterMs', () => {
    expect(retryDelayMs(1, 60_001, DEFAULT_RETRY_POLICY)).toBeNull();
  });
});

describe('parseRetryAfterMs', () => {
  const now = Date.UTC(2026, 0, 1);

  it('reads delta seconds', () => {
    expect(parseRetryAfterMs('60', now)).toBe(60_000);
    expect(parseRetryAfterMs(' 0 ', now)).toBe(0);
  });

  it('reads an HTTP date relative to now, never negative', () => {
    expect(parseRetryAfterMs(new Date(now + 5000).toUTCString(), now)).toBe(5000);
    expect(parseRetryAfterMs(new Date(now - 5000).toUTCString(), now)).toBe(0);
  });

  it('ignores an absent or unreadable value', () => {
    expect(parseRetryAfterMs(null, now)).toBeNull();
    expect(parseRetryAfterMs(undefined, now)).toBeNull();
    expect(parseRetryAfterMs('soon', now)).toBeNull();
    expect(parseRetryAfterMs('-5', now)).toBeNull();
  });
});
