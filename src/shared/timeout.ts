/**
 * A child signal that aborts when `parent` does or after `ms`, whichever comes first.
 * (AbortSignal.any and AbortSignal.timeout are too recent for the browsers partners support,
 * and fake timers do not drive AbortSignal.timeout.)
 *
 * @example
 * const t = withTimeout(signal, 30_000);
 * try { await fetch(url, { signal: t.signal }) } finally { t.clear() }
 */
export function withTimeout(parent: AbortSignal, ms: number): { signal: AbortSignal; clear(): void } {
  const controller = new AbortController();
  const abort = (): void => {
    clearTimeout(timer);
    controller.abort();
  };
  const timer = setTimeout(abort, ms);
  if (parent.aborted) abort();
  else parent.addEventListener('abort', abort);
  return {
    signal: controller.signal,
    clear() {
      clearTimeout(timer);
      parent.removeEventListener('abort', abort);
    },
  };
}

/**
 * Resolves after `ms` (`Infinity`: never by itself), at once when `signal` aborts, or when
 * `wake` calls back. Never rejects: callers check `signal.aborted`. `wake` subscribes and
 * returns its unsubscribe function.
 *
 * @example await sleep(1000, signal); if (signal.aborted) return;
 */
export function sleep(ms: number, signal: AbortSignal, wake?: (done: () => void) => () => void): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted || ms <= 0) return resolve();
    let finished = false;
    let stopWake: (() => void) | undefined;
    const done = (): void => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      stopWake?.();
      resolve();
    };
    const timer = ms === Infinity ? undefined : setTimeout(done, ms);
    signal.addEventListener('abort', done);
    stopWake = wake?.(done);
    // `wake` may have fired while subscribing, before stopWake existed
    if (finished) stopWake?.();
  });
}
