/**
 * One change feed per SQLite store: long polls register here instead of each running a timer. A
 * change made through this store wakes the request's waiters at once; a change made by another
 * process on the same file is seen by one shared check of `PRAGMA data_version`, and only then are
 * the waited-on rows re-read, in one query.
 */

/**
 * How often, while anyone waits, the store asks SQLite whether another process wrote to the file
 * (`PRAGMA data_version`, one cheap call whatever the number of waiters).
 */
const CROSS_PROCESS_POLL_MS = 150;

export interface Waiter {
  sinceVersion: number;
  done(): void;
}

interface ChangeFeedSource {
  dataVersion(): number;
  versions(ids: string[]): { id: string; version: number }[];
}

export function createChangeFeed(read: ChangeFeedSource) {
  const waiting = new Map<string, Set<Waiter>>();
  let timer: NodeJS.Timeout | undefined;
  let lastDataVersion = 0;

  function wake(id: string, version: number | null): void {
    for (const waiter of waiting.get(id) ?? []) if (waiter.sinceVersion !== version) waiter.done();
  }
  function checkOtherProcesses(): void {
    const dataVersion = read.dataVersion();
    if (dataVersion === lastDataVersion) return;
    lastDataVersion = dataVersion;
    const ids = [...waiting.keys()];
    const found = new Map(read.versions(ids).map((row) => [row.id, row.version]));
    for (const id of ids) wake(id, found.get(id) ?? null);
  }
  return {
    add(id: string, waiter: Waiter): void {
      let set = waiting.get(id);
      if (!set) waiting.set(id, (set = new Set()));
      set.add(waiter);
      if (!timer) {
        lastDataVersion = read.dataVersion();
        timer = setInterval(checkOtherProcesses, CROSS_PROCESS_POLL_MS);
        timer.unref();
      }
    },
    remove(id: string, waiter: Waiter): void {
      const set = waiting.get(id);
      if (!set?.delete(waiter)) return;
      if (set.size === 0) waiting.delete(id);
      if (waiting.size === 0) {
        clearInterval(timer);
        timer = undefined;
      }
    },
    /** this store changed `id`: its waiters re-check now */
    changed(id: string): void {
      if (!waiting.has(id)) return;
      const [row] = read.versions([id]);
      wake(id, row?.version ?? null);
    },
    closeAll(): void {
      for (const set of [...waiting.values()]) for (const waiter of [...set]) waiter.done();
    },
  };
}
