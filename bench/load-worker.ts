/**
 * The load generator of bench/api.ts, in a child process of its own: it shares neither the
 * service's event loop nor its CPU account, so the bench process's CPU time during a run is the
 * server's alone. It gets its job over IPC, signs every request before the run starts (each with
 * its own nonce), says `ready`, runs autocannon on `go` and sends the result back.
 */
import autocannonModule from 'autocannon';
import { randomBytes } from 'node:crypto';
import { signRequest } from '../server/sdk/signing.ts';

export interface LoadJob {
  url: string;
  path: string;
  /** one body per request, in order; the run ends early if they run out */
  bodies: string[];
  connections: number;
  seconds: number;
  partnerId: string;
  secret: string;
  /** each request with an Idempotency-Key of its own (`bench-<run>-<n>`), as the SDK sends every exchange */
  idempotencyKeys?: boolean;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  total: number;
  non2xx: number;
  errors: number;
  /** requests sent (each with its own pre-signed headers) */
  used: number;
}

interface CannonRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}
interface CannonResult {
  /** seconds the run lasted */
  duration: number;
  requests: { total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
const autocannon = autocannonModule as unknown as ((options: object) => Promise<unknown>) & {
  aggregateResult(raw: unknown[], options: object): CannonResult;
};

/** What the child sends its parent, in order. */
export type LoadMessage = { type: 'ready' } | { type: 'result'; result: LoadResult };

const send = (message: LoadMessage) => new Promise<void>((done) => process.send!(message, () => done()));
const job = await new Promise<LoadJob>((done) => process.once('message', (message) => done(message as LoadJob)));
/** Keys live as long as their grant: each run's are its own, or a key from the last run would name another grant. */
const run = randomBytes(6).toString('base64url');
const signed = job.bodies.map((body, i) => ({
  body,
  headers: {
    ...signRequest({ partnerId: job.partnerId, secret: job.secret, body }),
    ...(job.idempotencyKeys && { 'Idempotency-Key': `bench-${run}-${i}` }),
  } as Record<string, string>,
}));
let next = 0;

const options = {
  url: job.url,
  connections: job.connections,
  duration: job.seconds,
  // Stop at the last pre-signed request rather than replay one.
  maxOverallRequests: signed.length,
  // The raw histograms, aggregated below as the CLI would; no progress bar on stderr.
  skipAggregateResult: true,
  renderProgressBar: false,
  requests: [
    {
      method: 'POST',
      path: job.path,
      setupRequest: (request: CannonRequest): CannonRequest => {
        const item = signed[next++ % signed.length]!;
        return { ...request, method: 'POST', path: job.path, headers: item.headers, body: item.body };
      },
    },
  ],
};
await send({ type: 'ready' });
await new Promise((done) => process.once('message', done)); // go
const result = autocannon.aggregateResult([await autocannon(options)], options);

const answer: LoadResult = {
  rps: result.requests.total / result.duration,
  p50: result.latency.p50,
  p99: result.latency.p99,
  total: result.requests.total,
  non2xx: result.non2xx,
  errors: result.errors + result.timeouts,
  used: next,
};
await send({ type: 'result', result: answer });
process.disconnect();
