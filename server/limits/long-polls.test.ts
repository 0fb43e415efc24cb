import { afterEach, describe, expect, it } from 'vitest';
import { createFakeClock } from '../clock.ts';
import { openSqliteStore } from '../store/sqlite.ts';
import type { Store } from '../store/store.ts';
import { createLongPollGate, SLOT_MARGIN_MS } from './long-polls.ts';

const stores: Store[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
});

function setUp(limits: { perAddress: number; total: number }) {
  const store = openSqliteStore(':memory:');
  stores.push(store);
  const clock = createFakeClock();
  return { store, clock, gate: createLongPollGate(limits, { store, clock }) };
}

describe('the long-poll gate', () => {
  it('lets an address hold its cap of waiting polls, and the next one in once one is released', async () => {
    const { gate } = setUp({ perAddress: 3, total: 10 });
    const held = await Promise.all([gate.enter('a', 25_000), gate.enter('a', 25_000), gate.enter('a', 25_000)]);
    expect(held.every(Boolean)).toBe(true);
    expect(await gate.enter('a', 25_000)).toBeNull();
    expect(await gate.enter('b', 25_000)).not.toBeNull();
    held[0]!();
    held[0]!(); // twice is once
    expect(gate.waiting).toBe(3);
    await expect.poll(() => gate.enter('a', 25_000)).not.toBeNull();
    expect(await gate.enter('a', 25_000)).toBeNull();
  });

  it('caps the instance whatever the addresses, without asking the store once full', async () => {
    const { gate, store } = setUp({ perAddress: 100, total: 5 });
    const held = await Promise.all(Array.from({ length: 5 }, (_, i) => gate.enter(`addr-${i}`, 25_000)));
    expect(held.every(Boolean)).toBe(true);
    let asked = 0;
    const holdSlot = store.holdSlot;
    store.holdSlot = (...args) => (asked++, holdSlot(...args));
    expect(await gate.enter('addr-new', 25_000)).toBeNull();
    expect(asked).toBe(0);
    for (const release of held) release!();
    expect(gate.waiting).toBe(0);
  });

  it('lets no more than the caps in when many polls race', async () => {
    const { gate } = setUp({ perAddress: 7, total: 12 });
    const crowd = await Promise.all(Array.from({ length: 20 }, () => gate.enter('crowd', 25_000)));
    expect(crowd.filter(Boolean)).toHaveLength(7);
    const singles = await Promise.all(Array.from({ length: 20 }, (_, i) => gate.enter(`single-${i}`, 25_000)));
    expect(singles.filter(Boolean)).toHaveLength(5);
    expect(gate.waiting).toBe(12);
  });

  it('shares the per-address budget with every gate on the same store, as instances do', async () => {
    const { gate, store, clock } = setUp({ perAddress: 2, total: 100 });
    const other = createLongPollGate({ perAddress: 2, total: 100 }, { store, clock });
    const release = await gate.enter('a', 25_000);
    expect(await other.enter('a', 25_000)).not.toBeNull();
    expect(await gate.enter('a', 25_000)).toBeNull();
    expect(await other.enter('a', 25_000)).toBeNull();
    release!();
    await expect.poll(() => other.enter('a', 25_000)).not.toBeNull();
  });

  it('forgets the slots of an instance that died holding them once their wait is over', async () => {
    const { store, clock } = setUp({ perAddress: 2, total: 100 });
    const crashed = createLongPollGate({ perAddress: 2, total: 100 }, { store, clock });
    await crashed.enter('a', 25_000);
    await crashed.enter('a', 10_000); // never released
    const survivor = createLongPollGate({ perAddress: 2, total: 100 }, { store, clock });
    expect(await survivor.enter('a', 25_000)).toBeNull();
    clock.advance(10_000 + SLOT_MARGIN_MS);
    expect(await survivor.enter('a', 25_000)).not.toBeNull();
    expect(await survivor.enter('a', 25_000)).toBeNull();
    clock.advance(15_000);
    expect(await survivor.enter('a', 25_000)).not.toBeNull();
  });

  it('lets no poll wait once stopped, and tells the waiting ones', async () => {
    const { gate } = setUp({ perAddress: 5, total: 5 });
    const release = await gate.enter('a', 25_000);
    gate.stop();
    expect(gate.stopping.aborted).toBe(true);
    expect(await gate.enter('a', 25_000)).toBeNull();
    release!();
    expect(gate.waiting).toBe(0);
  });

  it('rejects as the store does and counts nothing then', async () => {
    const { gate, store } = setUp({ perAddress: 5, total: 5 });
    store.holdSlot = () => Promise.reject(new Error('store down'));
    await expect(gate.enter('a', 25_000)).rejects.toThrow('store down');
    expect(gate.waiting).toBe(0);
  });
});
