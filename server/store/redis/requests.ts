/**
 * Verification requests in Redis: a hash per request, one field per property, created and
 * compare-and-set in Lua, which publishes "<id> <version>" on the change channel; long polls wait
 * on those messages. And the pass tokens their results become.
 */
import type { PassTokenRecord, Store, VerifyRequestRecord } from '../store.ts';
import { pairs } from './checks.ts';
import type { RedisConnection } from './connection.ts';
import { ttl } from './ttl.ts';
import { createWaiters, type Waiter } from './waiters.ts';

const SCRIPTS = {
  /** ARGV: TTL, channel, message, field, value, … → 1, or 0 when the id exists */
  createRequest: `
    if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
    redis.call('HSET', KEYS[1], unpack(ARGV, 4))
    redis.call('PEXPIRE', KEYS[1], ARGV[1])
    redis.call('PUBLISH', ARGV[2], ARGV[3])
    return 1`,
  /**
   * ARGV: expected version, next version, new expiresAt or '', channel, message, field, value, …
   * → the whole hash after the update, or nil when the version moved. A new expiresAt moves the
   * TTL by as much as it moves the expiry.
   */
  updateRequest: `
    local version = redis.call('HGET', KEYS[1], 'version')
    if not version or tonumber(version) ~= tonumber(ARGV[1]) then return false end
    if ARGV[3] ~= '' then
      local ttl = redis.call('PTTL', KEYS[1])
      if ttl > 0 then
        ttl = ttl + tonumber(ARGV[3]) - tonumber(redis.call('HGET', KEYS[1], 'expiresAt'))
        if ttl < 1 then ttl = 1 end
        redis.call('PEXPIRE', KEYS[1], string.format('%d', ttl))
      end
    end
    redis.call('HSET', KEYS[1], 'version', ARGV[2], unpack(ARGV, 6))
    redis.call('PUBLISH', ARGV[4], ARGV[5])
    return redis.call('HGETALL', KEYS[1])`,
} as const;

/** Request hash: one field per record property, each JSON-encoded, so that a patch touches only its fields. */
function requestFields(record: Partial<VerifyRequestRecord>): string[] {
  const fields: string[] = [];
  for (const [name, value] of Object.entries(record)) if (value !== undefined) fields.push(name, JSON.stringify(value));
  return fields;
}

function toRequest(fields: [string, string][]): VerifyRequestRecord {
  return Object.fromEntries(fields.map(([name, json]) => [name, JSON.parse(json)])) as unknown as VerifyRequestRecord;
}

/**
 * Long-poll wake-ups from the change channel. Deaf while the subscriber is down: answers every
 * waiter (its poll re-reads, and meets a 503 if Redis is gone); once it is back, subscribes again
 * and re-checks whoever started waiting meanwhile.
 */
function changeListener(conn: RedisConnection, requestKey: (id: string) => string) {
  const { client, subscriber, channel, isClosed } = conn;
  const waiters = createWaiters();
  let listening = true;
  async function recheck(w: Waiter): Promise<void> {
    try {
      const raw = await client.hget(requestKey(w.id), 'version');
      if ((raw === null ? null : Number(raw)) !== w.sinceVersion) waiters.finish(w);
    } catch {
      waiters.finish(w); // Redis is failing: let the poll re-read and answer 503
    }
  }
  subscriber.on('message', (_channel: string, message: string) => {
    const space = message.lastIndexOf(' ');
    const set = waiters.byId.get(message.slice(0, space));
    if (!set) return;
    const version = Number(message.slice(space + 1));
    for (const w of [...set]) if (w.sinceVersion !== version) waiters.finish(w);
  });
  subscriber.on('close', () => {
    if (isClosed() || !listening) return;
    listening = false;
    waiters.finishAll();
  });
  subscriber.on('ready', () => {
    if (isClosed() || listening) return;
    subscriber.subscribe(channel).then(
      () => {
        listening = true;
        for (const set of [...waiters.byId.values()]) for (const w of [...set]) void recheck(w);
      },
      () => {}, // the next reconnection tries again
    );
  });
  conn.onClose(() => waiters.finishAll());
  return { waiters, recheck };
}

function waitForChange(conn: RedisConnection, requestKey: (id: string) => string): Store['waitForRequestChange'] {
  const { waiters, recheck } = changeListener(conn, requestKey);
  return (id, sinceVersion, timeoutMs, signal) =>
    new Promise<void>((resolve) => {
      if (conn.isClosed() || signal?.aborted) return resolve();
      const w: Waiter = {
        id,
        sinceVersion,
        deadline: Date.now() + Math.max(0, timeoutMs),
        done: false,
        resolve,
        signal,
        onAbort: () => waiters.finish(w),
      };
      waiters.add(w);
      // Registered first, read second: a change between the caller's read and now is not missed.
      // While Redis is down the read fails and the waiter is answered at once (its poll meets a 503).
      void recheck(w);
    });
}

type RequestMethods = Pick<Store, 'createRequest' | 'getRequest' | 'updateRequest'>;

function requestMethods(conn: RedisConnection, requestKey: (id: string) => string): RequestMethods {
  const { client, call, channel, minReplicas, writeHeld, unheld } = conn;
  const scripts = conn.scripts(SCRIPTS);
  return {
    async createRequest(record) {
      const args = [ttl(record.expiresAt - record.createdAt), channel, `${record.id} ${record.version}`];
      const created = await call('createRequest', () =>
        scripts.run('createRequest', [requestKey(record.id)], [...args, ...requestFields(record)]),
      );
      if (created !== 1) throw new Error(`request ${record.id} already exists`);
    },
    async getRequest(id, now) {
      const flat = await call('getRequest', () => client.hgetall(requestKey(id)));
      if (Object.keys(flat).length === 0) return null;
      const record = toRequest(Object.entries(flat));
      return record.expiresAt > now ? record : null;
    },
    async updateRequest(id, expectedVersion, patch) {
      const next = expectedVersion + 1;
      const args = [expectedVersion, next, patch.expiresAt ?? '', channel, `${id} ${next}`, ...requestFields(patch)];
      if (minReplicas > 0 && patch.status !== undefined) {
        // A status change is what the phone, the widget and the partner act on: held, or not answered.
        const { value, held } = await writeHeld<string[] | null>('updateRequest', (p) =>
          scripts.inPipeline(p, 'updateRequest', [requestKey(id)], args),
        );
        if (value !== null && !held) throw unheld('updateRequest');
        return value === null ? null : toRequest(pairs(value));
      }
      const flat = await call('updateRequest', () => scripts.run('updateRequest', [requestKey(id)], args));
      return flat === null ? null : toRequest(pairs(flat as string[]));
    },
  };
}

function passTokenMethods(conn: RedisConnection): Pick<Store, 'putPassToken' | 'getPassToken'> {
  const { client, call, prefix, writeAndWait } = conn;
  const key = (digest: string) => `${prefix}pass:${digest}`;
  return {
    async putPassToken(token) {
      const px = ttl(token.expiresAt - token.issuedAt);
      await writeAndWait('putPassToken', (p) => p.set(key(token.digest), JSON.stringify(token), 'PX', px));
    },
    async getPassToken(digest, now) {
      const json = await call('getPassToken', () => client.get(key(digest)));
      if (json === null) return null;
      const token = JSON.parse(json) as PassTokenRecord;
      return token.expiresAt > now ? token : null;
    },
  };
}

/** Requests and pass tokens over `conn`; its close answers every waiting poll. */
export function requests(
  conn: RedisConnection,
): RequestMethods & Pick<Store, 'waitForRequestChange' | 'putPassToken' | 'getPassToken'> {
  const requestKey = (id: string) => `${conn.prefix}request:${id}`;
  return {
    ...requestMethods(conn, requestKey),
    waitForRequestChange: waitForChange(conn, requestKey),
    ...passTokenMethods(conn),
  };
}
