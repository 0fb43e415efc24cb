/**
 * Per-address limits as a hostile client meets them (docs/operations.md#running-the-service,
 * "Client addresses"): an IPv6 client owns a whole /64, and only a named proxy may say who the client is.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../app.ts';
import { makeTestApp, makeTestDeps, PARTNERS, type TestApp } from '../test/helpers.ts';

const PARTNER_ORIGIN = 'http://localhost:8788';

describe('per-address limits', () => {
  let t: TestApp;
  afterEach(async () => t?.close());

  const create = (headers: Record<string, string> = {}, remoteAddress = '127.0.0.1') =>
    t.app.inject({
      method: 'POST',
      url: '/api/w/verify-request',
      remoteAddress,
      headers: { 'content-type': 'text/plain;charset=UTF-8', origin: PARTNER_ORIGIN, ...headers },
      payload: JSON.stringify({ partner_id: PARTNERS.demo.id }),
    });

  it('answers 429 to the 121st create from one IPv6 /64, whatever address of the /64 sends it', async () => {
    t = await makeTestApp();
    const statuses: number[] = [];
    for (let i = 0; i < 125; i++)
      statuses.push((await create({}, `2001:db8:5:6:${(i + 1).toString(16)}::${i + 7}`)).statusCode);
    expect(statuses.slice(0, 120).every((status) => status === 201)).toBe(true);
    expect(statuses.slice(120)).toEqual([429, 429, 429, 429, 429]);
    expect((await create({}, '2001:db8:5:7::1')).statusCode).toBe(201);
  });

  it('counts an IPv4 client on a dual-stack socket and the same client over IPv4 as one', async () => {
    t = await makeTestApp();
    for (let i = 0; i < 60; i++) await create({}, '::ffff:198.51.100.4');
    for (let i = 0; i < 60; i++) await create({}, '198.51.100.4');
    expect((await create({}, '198.51.100.4')).statusCode).toBe(429);
  });

  it('keys a forwarded IPv6 client by its /64 behind a trusted proxy', async () => {
    t = await makeTestApp({ env: { SVC_TRUST_PROXY: 'loopback' } });
    for (let i = 0; i < 120; i++)
      expect((await create({ 'x-forwarded-for': `2001:db8:9:9::${i + 1}` })).statusCode).toBe(201);
    expect((await create({ 'x-forwarded-for': '2001:db8:9:9:ffff::1' })).statusCode).toBe(429);
    expect((await create({ 'x-forwarded-for': '2001:db8:9:a::1' })).statusCode).toBe(201);
  });

  it('counts a forwarded client as one whatever source port its proxy writes after the address', async () => {
    t = await makeTestApp({ env: { SVC_TRUST_PROXY: 'loopback' } });
    for (let i = 0; i < 120; i++)
      expect((await create({ 'x-forwarded-for': `203.0.113.9:${4000 + i}` })).statusCode).toBe(201);
    expect((await create({ 'x-forwarded-for': '203.0.113.9:65000' })).statusCode).toBe(429);
    expect((await create({ 'x-forwarded-for': '203.0.113.9' })).statusCode).toBe(429);
    expect((await create({ 'x-forwarded-for': '203.0.113.10:4000' })).statusCode).toBe(201);
  });

  it('counts a forwarded IPv4-mapped address, however spelled, as its IPv4 address: one budget', async () => {
    t = await makeTestApp({ env: { SVC_TRUST_PROXY: 'loopback' } });
    const spellings = [
      '198.51.100.9',
      '::ffff:198.51.100.9',
      '::ffff:c633:6409',
      '::FFFF:C633:6409',
      '0:0:0:0:0:ffff:c633:6409',
      '0000:0000:0000:0000:0000:ffff:c633:6409',
    ];
    for (let i = 0; i < 120; i++)
      expect((await create({ 'x-forwarded-for': spellings[i % spellings.length]! })).statusCode).toBe(201);
    for (const spelling of spellings)
      expect((await create({ 'x-forwarded-for': spelling })).statusCode, spelling).toBe(429);
    expect((await create({ 'x-forwarded-for': '198.51.100.10' })).statusCode).toBe(201);
  });

  it('counts a forwarded [IPv6]:port client by its /64, whatever the port', async () => {
    t = await makeTestApp({ env: { SVC_TRUST_PROXY: 'loopback' } });
    for (let i = 0; i < 120; i++)
      expect((await create({ 'x-forwarded-for': `[2001:db8:9:9::${i + 1}]:${1024 + i}` })).statusCode).toBe(201);
    expect((await create({ 'x-forwarded-for': '[2001:db8:9:9::ffff]:1' })).statusCode).toBe(429);
    expect((await create({ 'x-forwarded-for': '[2001:db8:9:a::1]:1' })).statusCode).toBe(201);
  });

  it('ignores X-Forwarded-For from an address that is not a named proxy', async () => {
    t = await makeTestApp({ env: { SVC_TRUST_PROXY: '10.0.0.1' } });
    for (let i = 0; i < 120; i++) await create({ 'x-forwarded-for': `203.0.113.${i}` });
    expect((await create({ 'x-forwarded-for': '203.0.113.250' })).statusCode).toBe(429);
  });

  it('answers 429 before authentication on billing from the 31st call of one /64', async () => {
    t = await makeTestApp();
    const bill = (i: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/billing/session',
        remoteAddress: `2001:db8:77:1::${i}`,
        payload: '{}',
      });
    for (let i = 1; i <= 30; i++) expect((await bill(i)).statusCode).toBe(401);
    expect((await bill(31)).statusCode).toBe(429);
  });
});

describe('access logs', () => {
  it('cut the client address to its /24 or /48 next to a request id', async () => {
    const { deps, store } = await makeTestDeps();
    const lines: string[] = [];
    const app = await createApp(deps, {
      logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } },
    });
    try {
      const addresses = ['198.51.100.77', '2001:db8:abcd:12:1:2:3:4'];
      for (const remoteAddress of addresses) {
        const res = await app.inject({
          method: 'POST',
          url: '/api/w/verify-request',
          remoteAddress,
          headers: { 'content-type': 'text/plain;charset=UTF-8', origin: PARTNER_ORIGIN },
          payload: JSON.stringify({ partner_id: PARTNERS.demo.id }),
        });
        expect(res.statusCode).toBe(201);
      }
      const log = lines.join('');
      expect(log).toContain('"remoteAddress":"198.51.100.0/24"');
      expect(log).toContain('"remoteAddress":"2001:db8:abcd::/48"');
      for (const full of addresses) expect(log).not.toContain(full);
      expect(log).not.toContain('2001:db8:abcd:12');
    } finally {
      await app.close();
      await store.close();
    }
  });

  it('show a forwarded ip:port or [v6]:port as its /24 or /48, never [unknown] nor the port', async () => {
    const { deps, store } = await makeTestDeps({ env: { SVC_TRUST_PROXY: 'loopback' } });
    const lines: string[] = [];
    const app = await createApp(deps, {
      logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } },
    });
    try {
      for (const forwarded of ['203.0.113.9:4711', '[2001:db8:abcd:12::5]:4711']) {
        const res = await app.inject({
          method: 'POST',
          url: '/api/w/verify-request',
          headers: { 'content-type': 'text/plain;charset=UTF-8', origin: PARTNER_ORIGIN, 'x-forwarded-for': forwarded },
          payload: JSON.stringify({ partner_id: PARTNERS.demo.id }),
        });
        expect(res.statusCode).toBe(201);
      }
      const log = lines.join('');
      expect(log).toContain('"remoteAddress":"203.0.113.0/24"');
      expect(log).toContain('"remoteAddress":"2001:db8:abcd::/48"');
      expect(log).not.toContain('[unknown]');
      expect(log).not.toContain('4711');
    } finally {
      await app.close();
      await store.close();
    }
  });
});
