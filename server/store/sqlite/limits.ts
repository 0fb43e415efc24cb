/** Rate-limit counters (fixed windows) and long-poll slots in SQLite. */
import type { CounterHit, Store } from '../store.ts';
import { immediate, type Db } from './connection.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS counters (
  key TEXT PRIMARY KEY, count INTEGER NOT NULL, reset_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS slots (
  key TEXT NOT NULL, slot TEXT NOT NULL, expires_at INTEGER NOT NULL, PRIMARY KEY (key, slot)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS counters_expiry ON counters (reset_at);
CREATE INDEX IF NOT EXISTS slots_expiry ON slots (expires_at);
`;

/** The tables `sweep` empties of expired rows, each with its expiry column. */
export const LIMITS_EXPIRING = { counters: 'reset_at', slots: 'expires_at' };

/** Counters and slots over `db`, creating their tables when missing. */
export function limits(db: Db): Pick<Store, 'hitCounter' | 'holdSlot' | 'releaseSlot'> {
  db.exec(SCHEMA);
  const getCounter = db.prepare('SELECT count, reset_at FROM counters WHERE key = ?');
  const putCounter = db.prepare(
    `INSERT INTO counters (key, count, reset_at) VALUES (?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET count = excluded.count, reset_at = excluded.reset_at`,
  );
  const countSlots = db.prepare('SELECT count(*) FROM slots WHERE key = ? AND expires_at > ?').pluck();
  const insertSlot = db.prepare(
    `INSERT INTO slots (key, slot, expires_at) VALUES (?, ?, ?)
     ON CONFLICT (key, slot) DO UPDATE SET expires_at = excluded.expires_at`,
  );
  const deleteSlot = db.prepare('DELETE FROM slots WHERE key = ? AND slot = ?');

  const hitCounter = immediate(db, (key: string, windowMs: number, now: number): CounterHit => {
    const row = getCounter.get(key) as { count: number; reset_at: number } | undefined;
    const hit =
      row && row.reset_at > now
        ? { count: row.count + 1, resetAt: row.reset_at }
        : { count: 1, resetAt: now + windowMs };
    putCounter.run(key, hit.count, hit.resetAt);
    return hit;
  });
  const holdSlot = immediate(db, (key: string, slotId: string, cap: number, expiresAt: number, now: number) => {
    if ((countSlots.get(key, now) as number) >= cap) return false;
    insertSlot.run(key, slotId, expiresAt);
    return true;
  });
  return {
    hitCounter: async (key, windowMs, now) => hitCounter(key, windowMs, now),
    holdSlot: async (key, slotId, cap, expiresAt, now) => holdSlot(key, slotId, cap, expiresAt, now),
    releaseSlot: async (key, slotId) => void deleteSlot.run(key, slotId),
  };
}
