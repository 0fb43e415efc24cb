/**
 * The four signal primitives the widget uses, with @preact/signals' names and meaning (`signal`,
 * `computed`, `effect`, `batch`; `.value` subscribes, `.peek()` does not; an effect may return
 * its cleanup), in some 300 bytes instead of @preact/signals-core's 2 KB (the UI bundle's
 * budget: docs/development.md#building-the-widget). Left out because the widget never uses
 * them: `subscribe`, `untracked`, `watched`/`unwatched`, devtools names, cycle detection.
 *
 * Reading `.value` inside a computed or an effect subscribes it. Writing a signal marks its
 * subscribers: a computed turns stale (and marks its own subscribers, once), an effect is queued.
 * Queued effects run when the outermost write or batch ends; a stale computed recomputes when it
 * is next read. Before each run a computed or an effect forgets its sources and subscribes again
 * to what that run reads.
 */

export interface ReadonlySignal<T> {
  readonly value: T;
  /** the value, without subscribing to it */
  peek(): T;
}

export interface Signal<T> extends ReadonlySignal<T> {
  value: T;
}

/** A signal or a computed: what its readers subscribed to. */
interface Source {
  subscribers: Set<Subscriber>;
}

/** A computed or an effect: what it read in its last run, and how a change reaches it. */
interface Subscriber {
  sources: Set<Source>;
  mark(): void;
}

/** The computed or effect running now: what it reads, it subscribes to. */
let running: Subscriber | undefined;
let batchDepth = 0;
/** the runs of effects whose sources changed */
const queued = new Set<() => void>();

function forget(subscriber: Subscriber): void {
  for (const source of subscriber.sources) source.subscribers.delete(subscriber);
  subscriber.sources.clear();
}

/** Runs `fn` with `subscriber` subscribed to exactly what it reads; untracked without one. */
function track<T>(subscriber: Subscriber | undefined, fn: () => T): T {
  if (subscriber) forget(subscriber);
  const outer = running;
  running = subscriber;
  try {
    return fn();
  } finally {
    running = outer;
  }
}

function subscribe(source: Source): void {
  if (running) {
    source.subscribers.add(running);
    running.sources.add(source);
  }
}

function notify(source: Source): void {
  batch(() => {
    for (const subscriber of [...source.subscribers]) subscriber.mark();
  });
}

/** @example const count = signal(0); count.value++; */
export function signal<T>(value: T): Signal<T> {
  const self = {
    subscribers: new Set<Subscriber>(),
    get value() {
      subscribe(self);
      return value;
    },
    set value(next: T) {
      if (next !== value) {
        value = next;
        notify(self);
      }
    },
    peek: () => value,
  };
  return self;
}

/** @example const double = computed(() => count.value * 2); */
export function computed<T>(fn: () => T): ReadonlySignal<T> {
  let value: T;
  let stale = true;
  const self = {
    subscribers: new Set<Subscriber>(),
    sources: new Set<Source>(),
    mark() {
      if (!stale) {
        stale = true;
        notify(self);
      }
    },
    peek() {
      if (stale) {
        stale = false;
        value = track(self, fn);
      }
      return value;
    },
    get value() {
      subscribe(self);
      return self.peek();
    },
  };
  return self;
}

/**
 * Runs `fn` now and again after each change of what it read; `fn` may return a cleanup, called
 * (untracked) before the next run and on dispose. Returns dispose.
 *
 * @example const stop = effect(() => console.log(count.value)); stop();
 */
export function effect(fn: () => unknown): () => void {
  let cleanup: unknown;
  let disposed = false;
  const self: Subscriber = { sources: new Set(), mark: () => queued.add(run) };
  const stop = (): void => {
    const last = cleanup;
    cleanup = undefined;
    if (typeof last === 'function') track(undefined, last as () => void);
  };
  function run(): void {
    if (disposed) return;
    stop();
    cleanup = track(self, fn);
  }
  batch(run); // like every later run: the writes it makes run their effects after it
  return () => {
    disposed = true;
    queued.delete(run);
    forget(self);
    stop();
  };
}

/**
 * Runs `fn`, then once each effect its writes queued, however many writes it made.
 *
 * @example batch(() => { a.value = 1; b.value = 2; }); // an effect reading both runs once
 */
export function batch<T>(fn: () => T): T {
  batchDepth++;
  try {
    return fn();
  } finally {
    try {
      // Effects run while the depth is still 1: the writes they make queue rather than nest.
      if (batchDepth === 1)
        for (const run of queued) {
          queued.delete(run);
          run();
        }
    } finally {
      batchDepth--;
    }
  }
}
