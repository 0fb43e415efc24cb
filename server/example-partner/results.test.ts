import { describe, expect, it } from 'vitest';
import type { ExchangeResponse } from '../sdk/index.ts';
import { createAttestationMemory, createExchangeMemory } from './results.ts';

const answer = (n: number): ExchangeResponse => ({
  pass_token: `p_${n}`,
  expires_in: 14400,
  token_type: 'Bearer',
  age_over_18: true,
  scopes: ['isAdult'],
  attributes: { age_over_18: true },
});

describe('exchange memory', () => {
  it('exchanges a grant once even when one session asks concurrently', async () => {
    const memory = createExchangeMemory({ now: () => 0 });
    let calls = 0;
    const exchange = async () => answer(++calls);
    const results = await Promise.all([
      memory.exchangeOnce('g_a', 's1', exchange),
      memory.exchangeOnce('g_a', 's1', exchange),
    ]);
    expect(calls).toBe(1);
    expect(results.map((r) => r.status).sort()).toEqual(['exchanged', 'remembered']);
    const responses = results.map((r) => ('response' in r ? r.response : null));
    expect(responses[0]).toBe(responses[1]);
  });

  it('answers used to any other session, during and after the exchange, without exchanging again', async () => {
    const memory = createExchangeMemory({ now: () => 0 });
    let calls = 0;
    const exchange = async () => answer(++calls);
    const [first, concurrent] = await Promise.all([
      memory.exchangeOnce('g_a', 's1', exchange),
      memory.exchangeOnce('g_a', 's2', exchange),
    ]);
    expect(first.status).toBe('exchanged');
    expect(concurrent).toEqual({ status: 'used' });
    expect(await memory.exchangeOnce('g_a', 's3', exchange)).toEqual({ status: 'used' });
    expect(calls).toBe(1);
  });

  it('forgets a failed exchange so the grant can be tried again', async () => {
    const memory = createExchangeMemory({ now: () => 0 });
    await expect(memory.exchangeOnce('g_b', 's1', async () => Promise.reject(new Error('offline')))).rejects.toThrow(
      'offline',
    );
    const retry = await memory.exchangeOnce('g_b', 's2', async () => answer(2));
    expect(retry).toEqual({ status: 'exchanged', response: answer(2) });
  });

  it('drops entries after the grant lifetime and beyond its size', async () => {
    let now = 0;
    const memory = createExchangeMemory({ now: () => now, ttlMs: 1000, maxEntries: 2 });
    await memory.exchangeOnce('g_1', 's', async () => answer(1));
    await memory.exchangeOnce('g_2', 's', async () => answer(2));
    await memory.exchangeOnce('g_3', 's', async () => answer(3));
    expect(memory.size).toBe(2);
    now = 1000;
    await memory.exchangeOnce('g_4', 's', async () => answer(4));
    expect(memory.size).toBe(1);
    expect((await memory.exchangeOnce('g_1', 's', async () => answer(5))).status).toBe('exchanged');
  });
});

describe('attestation memory', () => {
  it('gives a jti to the first session, remembers it for that session and refuses it to others', () => {
    const memory = createAttestationMemory({ now: () => 0 });
    expect(memory.claim('j1', 300, 's1')).toBe('new');
    expect(memory.claim('j1', 300, 's1')).toBe('remembered');
    expect(memory.claim('j1', 300, 's2')).toBe('used');
    expect(memory.claim('j2', 300, 's2')).toBe('new');
  });

  it('keeps a jti until its exp passes, then forgets it', () => {
    let now = 0;
    const memory = createAttestationMemory({ now: () => now });
    memory.claim('j1', 300, 's1');
    now = 299_999;
    expect(memory.claim('j1', 300, 's2')).toBe('used');
    now = 300_000;
    expect(memory.claim('j2', 600, 's2')).toBe('new');
    expect(memory.size).toBe(1);
  });

  it('refuses a new jti when full of live ones rather than forget one early, and sweeps expired ones', () => {
    let now = 0;
    const memory = createAttestationMemory({ now: () => now, maxEntries: 2 });
    expect(memory.claim('long', 900, 's')).toBe('new');
    expect(memory.claim('short', 300, 's')).toBe('new');
    expect(memory.claim('j3', 300, 's')).toBe('full');
    expect(memory.claim('short', 300, 'other')).toBe('used');
    now = 300_000;
    // 'short' expired behind a live 'long': the sweep finds it although it is not first.
    expect(memory.claim('j3', 600, 's')).toBe('new');
    expect(memory.claim('long', 900, 'other')).toBe('used');
  });
});
