/**
 * Redis TTLs only collect (the caller's `now` decides expiry): a TTL is the record's lifetime plus
 * TTL_MARGIN_MS, measured from the record's own start, never from an absolute time compared with
 * Redis's clock.
 */

/**
 * Added to every TTL: covers clocks that differ between instances and Redis, so that Redis never
 * drops a row (a nonce above all) before every instance sees it expired.
 */
export const TTL_MARGIN_MS = 60_000;

/** The TTL of a record that lives `lifetimeMs`. */
export const ttl = (lifetimeMs: number) => Math.max(1, Math.ceil(lifetimeMs)) + TTL_MARGIN_MS;
