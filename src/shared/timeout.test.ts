import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sleep, withTimeout } from './timeout.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** Whether `promise` has settled, without waiting for it. */
async function isSettled(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(() => (settled = true));
  await vi.advanceTimersByTimeAsync(0);
  return settled;
}

describe('withTimeout', () => {
  it('aborts its signal once the time is up, not before', async () => {
    const timed = withTimeout(new AbortController().signal, 5000);
    await vi.advanceTimersByTimeAsync(4999);
    expect(timed.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(timed.signal.aborted).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('aborts its signal at once when the parent aborts, and clears its timer', () => {
    const parent = new AbortController();
    const timed = withTimeout(parent.signal, 5000);
    parent.abort();
    expect(timed.signal.aborted).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('starts aborted under a parent that already is', () => {
    const parent = new AbortController();
    parent.abort();
    expect(withTimeout(parent.signal, 5000).signal.aborted).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('lets go of the timer and the parent after clear()', async () => {
    const parent = new AbortController();
    const timed = withTimeout(parent.signal, 5000);
    timed.clear();
    expect(vi.getTimerCount()).toBe(0);
    parent.abort();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(timed.signal.aborted).toBe(false);
  });
});

describe('sleep', () => {
  it('resolves after the given time, not before, and leaves no timer', async () => {
    const slept = sleep(1000, new AbortController().signal);
    await vi.advanceTimersByTimeAsync(999);
    expect(await isSettled(slept)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await isSettled(slept)).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('resolves at once for no time at all or an aborted signal', async () => {
    const aborted = new AbortController();
    aborted.abort();
    expect(await isSettled(sleep(0, new AbortController().signal))).toBe(true);
    expect(await isSettled(sleep(-50, new AbortController().signal))).toBe(true);
    expect(await isSettled(sleep(1000, aborted.signal))).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('resolves, never rejects, when the signal aborts mid-sleep; Infinity only ends that way', async () => {
    const controller = new AbortController();
    const forever = sleep(Infinity, controller.signal);
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(await isSettled(forever)).toBe(false);
    controller.abort();
    await expect(forever).resolves.toBeUndefined();
  });

  it('resolves early when woken, and unsubscribes the wake once', async () => {
    let wakeUp!: () => void;
    const unsubscribe = vi.fn();
    const slept = sleep(60_000, new AbortController().signal, (done) => {
      wakeUp = done;
      return unsubscribe;
    });
    await vi.advanceTimersByTimeAsync(1000);
    wakeUp();
    expect(await isSettled(slept)).toBe(true);
    wakeUp();
    expect(unsubscribe).toHaveBeenCalledOnce();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('resolves and unsubscribes when the wake fires while subscribing', async () => {
    const unsubscribe = vi.fn();
    const slept = sleep(Infinity, new AbortController().signal, (done) => {
      done();
      return unsubscribe;
    });
    expect(await isSettled(slept)).toBe(true);
    expect(unsubscribe).toHaveBeenCalledOnce();
  });
});
