/**
 * Writes the replicas must hold (design.md §17): with SVC_REDIS_MIN_REPLICAS ≥ 1 a single-use
 * write is sent in one pipeline with `WAIT minReplicas waitMs`, so on the connection that wrote
 * it; fewer acknowledgements reject with StoreUnavailableError (503).
 */
import type { ChainableCommander, Redis } from 'ioredis';
import { StoreUnavailableError } from '../store.ts';
import { reasonOf } from './checks.ts';
import { ttl } from './ttl.ts';

type Call = <T>(what: string, work: () => Promise<T>) => Promise<T>;
type Write = (pipeline: ChainableCommander) => void;

/** Replicas online and acknowledging (lag ≤ 1 s: they acknowledge every second). */
export async function replicasOnline(client: Redis): Promise<number> {
  const info = await client.info('replication');
  return [...info.matchAll(/^slave\d+:.*state=online.*lag=(\d+)/gm)].filter(([, lag]) => Number(lag) <= 1).length;
}

async function replicasReady(client: Redis, minReplicas: number): Promise<boolean> {
  return (await replicasOnline(client)) >= minReplicas;
}

/** `write` alone in a pipeline (no replica waited for): its answer, or StoreUnavailableError. */
async function writeOnce<T>(client: Redis, call: Call, what: string, write: Write): Promise<T> {
  const results = await call(what, () => {
    const pipeline = client.pipeline();
    write(pipeline);
    return pipeline.exec();
  });
  const [error, value] = results?.[0] ?? [new Error('no answer'), null];
  if (error) throw new StoreUnavailableError(`Redis did not answer (${what}): ${reasonOf(error)}`);
  return value as T;
}

export function replicatedWrites(client: Redis, call: Call, minReplicas: number, waitMs: number) {
  let short = false;
  const unheld = (what: string) =>
    new StoreUnavailableError(
      `fewer than ${minReplicas} replica(s) acknowledged ${what} within ${waitMs} ms (SVC_REDIS_MIN_REPLICAS)`,
    );

  /**
   * Sends `write` and `WAIT minReplicas waitMs` in one pipeline: one connection, so WAIT counts
   * the acknowledgements of this very write. `held` is false when fewer replicas acknowledged it.
   */
  async function writeHeld<T>(what: string, write: Write): Promise<{ value: T; held: boolean }> {
    // After a WAIT came back short, look before writing: each WAIT blocks the connection for up
    // to waitMs, and callers retrying 503s would queue them back to back while no replica is there.
    if (short && !(await call(what, () => replicasReady(client, minReplicas)))) throw unheld(what);
    const pipeline = client.pipeline();
    write(pipeline);
    pipeline.wait(minReplicas, waitMs);
    const results = await call(what, () => pipeline.exec());
    const failed = results?.find(([error]) => error);
    if (!results || failed) throw new StoreUnavailableError(`Redis did not answer (${what}): ${reasonOf(failed?.[0])}`);
    const held = (results.at(-1)![1] as number) >= minReplicas;
    short = !held;
    return { value: results[0]![1] as T, held };
  }

  /** A write that must be held by the replicas before the caller answers: throws when it is not. */
  async function writeAndWait<T>(what: string, write: Write): Promise<T> {
    if (minReplicas === 0) return writeOnce<T>(client, call, what, write);
    const { value, held } = await writeHeld<T>(what, write);
    if (!held) throw unheld(what);
    return value;
  }

  /**
   * GETDEL, held by the replicas; when they do not acknowledge it, the value is put back (it was
   * handed to nobody) and the call rejects: the caller's retry finds it again.
   */
  async function takeHeld(what: string, key: string, lifetimeMs: (json: string) => number): Promise<string | null> {
    if (minReplicas === 0) return call(what, () => client.getdel(key));
    const { value, held } = await writeHeld<string | null>(what, (p) => p.getdel(key));
    if (value !== null && !held) {
      await client.set(key, value, 'PX', ttl(lifetimeMs(value)), 'NX').catch(() => {});
      throw unheld(what);
    }
    return value;
  }

  return { writeHeld, writeAndWait, takeHeld, unheld };
}
