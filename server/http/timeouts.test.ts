/**
 * The edge's timeouts on a real listening server and real sockets (docs/operations.md#running-the-service,
 * "Timeouts"): a request trickling in is cut at its configured deadline, a long poll that waits
 * longer than that deadline is answered normally, and an idle kept-alive connection is governed by
 * the keep-alive timeout only.
 * The timeouts are configured short (1-2 s) so that the tests take seconds.
 */
import type { FastifyInstance } from 'fastify';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { makeTestDeps, type TestDeps } from '../test/helpers.ts';
import { startStandardFlow, PARTNER_ORIGIN } from '../test/verify-flow.ts';
import { edgeTimeouts } from './timeouts.ts';

let running: { app: FastifyInstance; base: TestDeps } | null = null;
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await running?.app.close();
  await running?.base.store.close();
  running = null;
});

async function listen(env: Record<string, string>): Promise<{ app: FastifyInstance; port: number }> {
  const base = await makeTestDeps({ env });
  const app = await createApp(base.deps);
  await app.listen({ port: 0, host: '127.0.0.1' });
  running = { app, base };
  return { app, port: (app.server.address() as { port: number }).port };
}

interface RawAnswer {
  /** everything the server wrote */
  text: string;
  /** ms from the first byte sent to the server closing the connection */
  closedAfterMs: number;
}

/**
 * Opens a socket, writes `head` at once, then one of `chunks` every `everyMs`, and resolves when
 * the server closes the connection.
 */
function rawRequest(port: number, head: string, chunks: readonly string[] = [], everyMs = 1_000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    const startedAt = Date.now();
    let text = '';
    let sent = 0;
    const timer = setInterval(() => {
      if (sent < chunks.length && !socket.destroyed) socket.write(chunks[sent++]!);
    }, everyMs);
    socket.on('data', (chunk) => (text += chunk.toString('latin1')));
    socket.on('error', () => {}); // a reset after the 408 is still a cut
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ text, closedAfterMs: Date.now() - startedAt });
    });
    socket.once('connect', () => {
      if (head) socket.write(head);
    });
    setTimeout(() => reject(new Error(`the server kept the connection open: ${text}`)), 15_000).unref();
  });
}

const CREATE_BODY = JSON.stringify({ partner_id: 'pk_test_demo', padding: 'x'.repeat(40) });

function createHead(contentLength: number): string {
  return (
    'POST /api/w/verify-request HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nConnection: close\r\n' +
    `Origin: ${PARTNER_ORIGIN}\r\nContent-Length: ${contentLength}\r\n\r\n`
  );
}

describe('edge timeouts on a real socket', () => {
  it('cuts a body trickling a byte a second at SVC_REQUEST_TIMEOUT_MS with 408; a long poll waiting longer is answered', async () => {
    const { app, port } = await listen({ SVC_REQUEST_TIMEOUT_MS: '1000', SVC_HEADERS_TIMEOUT_MS: '1000' });
    const flow = await startStandardFlow({ app });
    const pollUrl =
      `http://127.0.0.1:${port}/api/w/verify-status/${flow.requestId}` +
      `?pt=${encodeURIComponent(flow.pollToken)}&wait=3&known=pending`;

    const pollStartedAt = Date.now();
    const [trickled, poll] = await Promise.all([
      rawRequest(port, createHead(CREATE_BODY.length), [...CREATE_BODY]),
      fetch(pollUrl).then(async (res) => ({
        status: res.status,
        body: await res.json(),
        afterMs: Date.now() - pollStartedAt,
      })),
    ]);

    expect(trickled.text).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(trickled.closedAfterMs).toBeGreaterThanOrEqual(1_000);
    // the deadline plus one check interval (a quarter of the headers timeout) and some slack
    expect(trickled.closedAfterMs).toBeLessThan(1_000 + 250 + 500);

    expect(poll.status).toBe(200);
    expect(poll.body).toMatchObject({ status: 'pending' });
    expect(poll.afterMs).toBeGreaterThanOrEqual(2_900);
  });

  it('still receives a whole body sent within the deadline, one slow chunk at a time', async () => {
    const { port } = await listen({ SVC_REQUEST_TIMEOUT_MS: '2000', SVC_HEADERS_TIMEOUT_MS: '1000' });
    const body = JSON.stringify({ partner_id: 'pk_test_demo' });
    const answer = await rawRequest(port, createHead(body.length) + body.slice(0, 10), [body.slice(10)], 1_000);
    // the rest arrives at 1 s, inside the 2 s: the request is served
    expect(answer.text).toMatch(/^HTTP\/1\.1 201 Created\r\n/);
  });

  it('cuts a client that sends no complete headers within SVC_HEADERS_TIMEOUT_MS, and one that sends nothing', async () => {
    const { port } = await listen({ SVC_REQUEST_TIMEOUT_MS: '3000', SVC_HEADERS_TIMEOUT_MS: '1000' });
    const [slowHeaders, silent] = await Promise.all([
      rawRequest(port, 'GET /healthz HTTP/1.1\r\n', [...'Host: 127.0.0.1\r\n\r\n'], 300),
      rawRequest(port, ''),
    ]);
    for (const answer of [slowHeaders, silent]) {
      expect(answer.text).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
      expect(answer.closedAfterMs).toBeGreaterThanOrEqual(1_000);
      expect(answer.closedAfterMs).toBeLessThan(1_000 + 250 + 500);
    }
  });

  it('keeps an idle kept-alive connection past the headers timeout and closes it at SVC_KEEP_ALIVE_TIMEOUT_MS', async () => {
    const { port } = await listen({
      SVC_REQUEST_TIMEOUT_MS: '1000',
      SVC_HEADERS_TIMEOUT_MS: '1000',
      SVC_KEEP_ALIVE_TIMEOUT_MS: '2500',
    });
    const get = 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
    // the second request comes 1.5 s after the first, idle past the 1 s headers timeout
    const answer = await rawRequest(port, get, [get], 1_500);
    expect(answer.text.match(/HTTP\/1\.1 200 OK/g)).toHaveLength(2);
    expect(answer.text).not.toContain('408');
    expect(answer.text).toContain('Keep-Alive: timeout=2\r\n');
    // closed 2.5 s after the second answer, plus the second of grace Node adds to what it advertises
    expect(answer.closedAfterMs).toBeGreaterThanOrEqual(1_500 + 2_500);
    expect(answer.closedAfterMs).toBeLessThan(1_500 + 2_500 + 1_000 + 500);
  });
});

describe('edgeTimeouts', () => {
  it('hands Node the configured deadlines, checked at least every second, and no socket idle timeout', () => {
    const config = loadConfig({});
    expect(edgeTimeouts(config)).toEqual({
      requestTimeout: 30_000,
      keepAliveTimeout: 72_000,
      connectionTimeout: 0,
      http: { requestTimeout: 30_000, headersTimeout: 10_000, connectionsCheckingInterval: 1_000 },
    });
    expect(
      edgeTimeouts({ requestTimeoutMs: 2_000, headersTimeoutMs: 1_000, keepAliveTimeoutMs: 5_000 }).http
        .connectionsCheckingInterval,
    ).toBe(250);
  });
});
