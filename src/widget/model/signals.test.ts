import { describe, expect, it } from 'vitest';
import { batch, computed, effect, signal } from './signals.ts';

describe('signals', () => {
  it('runs an effect at once and again after each change of a signal it read', () => {
    const count = signal(1);
    const seen: number[] = [];
    effect(() => void seen.push(count.value));
    count.value = 2;
    count.value = 3;
    expect(seen).toEqual([1, 2, 3]);
  });

  it('does not run an effect again when a write leaves the value as it was', () => {
    const state = signal('waiting');
    let runs = 0;
    effect(() => {
      void state.value;
      runs++;
    });
    state.value = 'waiting';
    expect(runs).toBe(1);
  });

  it('does not subscribe through peek()', () => {
    const count = signal(1);
    let runs = 0;
    effect(() => {
      count.peek();
      runs++;
    });
    count.value = 2;
    expect(runs).toBe(1);
  });

  it('runs an effect once after a batch, however many of its signals the batch wrote', () => {
    const a = signal(1);
    const b = signal(1);
    const seen: number[] = [];
    effect(() => void seen.push(a.value + b.value));
    const returned = batch(() => {
      a.value = 2;
      b.value = 3;
      batch(() => (a.value = 4));
      expect(seen).toEqual([2]);
      return 'done';
    });
    expect(returned).toBe('done');
    expect(seen).toEqual([2, 7]);
  });

  it('computes lazily, caches until a source changes, and updates the effects that read it', () => {
    const expiresAt = signal(10_000);
    const now = signal(0);
    let computations = 0;
    const secondsLeft = computed(() => {
      computations++;
      return Math.ceil((expiresAt.value - now.value) / 1000);
    });
    expect(computations).toBe(0);
    const seen: number[] = [];
    effect(() => void seen.push(secondsLeft.value));
    expect(secondsLeft.peek()).toBe(10);
    expect(computations).toBe(1);
    now.value = 1_000;
    expect(seen).toEqual([10, 9]);
    expect(secondsLeft.value).toBe(9);
    expect(computations).toBe(2);
  });

  it('follows what an effect reads in its latest run only', () => {
    const showQr = signal(false);
    const qr = signal('a');
    const link = signal('x');
    const seen: string[] = [];
    effect(() => void seen.push(showQr.value ? qr.value : link.value));
    qr.value = 'b'; // not read yet
    showQr.value = true;
    link.value = 'y'; // not read any more
    qr.value = 'c';
    expect(seen).toEqual(['x', 'b', 'c']);
  });

  it('calls an effect’s cleanup before its next run and when it is disposed, and never runs it after', () => {
    const state = signal('waiting');
    const log: string[] = [];
    const stop = effect(() => {
      const shown = state.value;
      log.push(`run ${shown}`);
      return () => log.push(`cleanup ${shown}`);
    });
    state.value = 'scanned';
    stop();
    state.value = 'completed';
    expect(log).toEqual(['run waiting', 'cleanup waiting', 'run scanned', 'cleanup scanned']);
  });

  it('queues the writes an effect makes and runs their effects after it, not inside it', () => {
    const state = signal('creating');
    const shown = signal('');
    const log: string[] = [];
    effect(() => {
      log.push(`render ${shown.value}`);
    });
    effect(() => {
      const now = state.value;
      shown.value = now;
      log.push(`emit ${now}`);
    });
    state.value = 'waiting';
    expect(log).toEqual(['render ', 'emit creating', 'render creating', 'emit waiting', 'render waiting']);
  });

  it('keeps a cleanup’s reads out of the effect’s sources', () => {
    const hidden = signal(false);
    const state = signal(1);
    let runs = 0;
    effect(() => {
      void state.value;
      runs++;
      return () => void hidden.value;
    });
    state.value = 2;
    hidden.value = true;
    expect(runs).toBe(2);
  });
});
