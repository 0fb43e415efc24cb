/**
 * Waiting long polls, in process: by request id (for wake-ups) and in a min-heap by deadline, so
 * that one timer serves them all. A finished waiter stays in the heap until its deadline comes up.
 */

export interface Waiter {
  id: string;
  sinceVersion: number;
  deadline: number;
  done: boolean;
  resolve(): void;
  signal: AbortSignal | undefined;
  onAbort(): void;
}

/** A binary min-heap of waiters by deadline, over a plain array (a sorted array is a heap). */
function heapOf(heap: Waiter[]) {
  const less = (i: number, j: number) => heap[i]!.deadline < heap[j]!.deadline;
  function swap(i: number, j: number) {
    [heap[i], heap[j]] = [heap[j]!, heap[i]!];
  }
  function push(w: Waiter) {
    heap.push(w);
    for (let i = heap.length - 1; i > 0 && less(i, (i - 1) >> 1); i = (i - 1) >> 1) swap(i, (i - 1) >> 1);
  }
  function pop() {
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length === 0) return top;
    heap[0] = last;
    for (let i = 0; ;) {
      const [l, r] = [2 * i + 1, 2 * i + 2];
      let m = i;
      if (l < heap.length && less(l, m)) m = l;
      if (r < heap.length && less(r, m)) m = r;
      if (m === i) break;
      swap(i, m);
      i = m;
    }
    return top;
  }
  return { push, pop };
}

export function createWaiters() {
  const byId = new Map<string, Set<Waiter>>();
  const heap: Waiter[] = [];
  const { push, pop } = heapOf(heap);
  let live = 0;
  let timer: NodeJS.Timeout | undefined;
  let timerAt = Infinity;

  function arm() {
    while (heap.length > 0 && heap[0]!.done) pop();
    const next = heap[0]?.deadline ?? Infinity;
    if (next === timerAt) return;
    clearTimeout(timer);
    timerAt = next;
    if (next !== Infinity) timer = setTimeout(expire, Math.max(0, next - Date.now()));
  }
  function expire() {
    timerAt = Infinity;
    const now = Date.now();
    while (heap.length > 0 && (heap[0]!.done || heap[0]!.deadline <= now)) finish(pop());
    arm();
  }
  /** Mostly finished waiters (answered long before their deadline): drop them. A sorted array is a heap. */
  function compact() {
    if (heap.length <= 1_024 || heap.length <= 4 * live) return;
    const kept = heap.filter((x) => !x.done).sort((a, b) => a.deadline - b.deadline);
    heap.length = 0;
    for (const x of kept) heap.push(x);
  }

  function finish(w: Waiter) {
    if (w.done) return;
    w.done = true;
    const set = byId.get(w.id);
    set?.delete(w);
    if (set?.size === 0) byId.delete(w.id);
    w.signal?.removeEventListener('abort', w.onAbort);
    live -= 1;
    compact();
    w.resolve();
  }
  function add(w: Waiter) {
    let set = byId.get(w.id);
    if (!set) byId.set(w.id, (set = new Set()));
    set.add(w);
    live += 1;
    push(w);
    arm();
    w.signal?.addEventListener('abort', w.onAbort, { once: true });
  }
  function finishAll() {
    for (const set of [...byId.values()]) for (const w of [...set]) finish(w);
  }

  return { byId, add, finish, finishAll };
}
