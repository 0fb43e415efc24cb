import { describe, expect, it } from 'vitest';
import type { ExchangeResponse } from '../sdk/index.ts';
import { createExchangeMemory } from './results.ts';

const answer = (n: number): ExchangeResponse => ({
  pass_token: `p_${n}`,
  expires_in: 14400,
  token_type: 'Bearer',
  age_over_18: true,
  scopes: ['isAdult'],
  attributes: { age_over_18: true },
});

describe('exchange memory', () => {
  it('exchanges a grant once even when asked concurrently', async () => {
    const memory = createExchangeMemory({ now: () => 0 });
    let calls = 0;
    const exchange = async () => answer(++calls);
    const results = await Promise.all([memory.exchangeOnce('g_a', exchange), memory.exchangeOnce('g_a', exchange)]);
    expect(calls).toBe(1);
    expect(results.map((r) => r.remembered).sort()).toEqual([false, true]);
    expect(results[0]?.response).toBe(results[1]?.response);
  });

  it('forgets a failed exchange so the grant can be tried again', async () => {
    const memory = createExchangeMemory({ now: () => 0 });
    await expect(memory.exchangeOnce('g_b', async () => Promise.reject(new Error('offline')))).rejects.toThrow('offline');
    const retry = await memory.exchangeOnce('g_b', async () => answer(2));
    expect(retry).toEqual({ response: answer(2), remembered: false });
  });

  it('drops entries after the grant lifetime and beyond its size', async () => {
    let now = 0;
    const memory = createExchangeMemory({ now: () => now, ttlMs: 1000, maxEntries: 2 });
    await memory.exchangeOnce('g_1', async () => answer(1));
    await memory.exchangeOnce('g_2', async () => answer(2));
    await memory.exchangeOnce('g_3', async () => answer(3));
    expect(memory.size).toBe(2);
    now = 1000;
    await memory.exchangeOnce('g_4', async () => answer(4));
    expect(memory.size).toBe(1);
    expect((await memory.exchangeOnce('g_1', async () => answer(5))).remembered).toBe(false);
  });
});
