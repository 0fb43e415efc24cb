/**
 * What the example partner backend remembers about the results it accepted, and for which
 * visitor's session (session.ts). A grant code and an attestation are bearer values: the first
 * session that presents one owns its result. The same session may ask again (server-verify
 * checks it, then the success page shows it) and is answered from here; any other session is
 * refused, because a second presentation from elsewhere is a copy, not the visitor.
 */
import { createHash } from 'node:crypto';
import type { ExchangeResponse } from '../sdk/index.ts';

/** `exchanged`: this call spent the grant; `remembered`: this session had; `used`: another session had */
export type ExchangeOutcome = { status: 'exchanged' | 'remembered'; response: ExchangeResponse } | { status: 'used' };

export interface ExchangeMemory {
  /**
   * Exchanges `grantCode` once for `sessionId`: concurrent and later calls from the same session
   * share the first call's promise, calls from another session get `used` (a failed exchange is
   * forgotten so the caller may retry).
   */
  exchangeOnce(
    grantCode: string,
    sessionId: string,
    exchange: (grantCode: string) => Promise<ExchangeResponse>,
  ): Promise<ExchangeOutcome>;
  /** number of grants remembered right now */
  readonly size: number;
}

/**
 * @example
 * const memory = createExchangeMemory({ now: Date.now });
 * const outcome = await memory.exchangeOnce(grant, sessionId, (g) => client.exchange(g));
 */
export function createExchangeMemory(options: {
  now: () => number;
  ttlMs?: number;
  maxEntries?: number;
}): ExchangeMemory {
  // A grant lives 5 minutes (docs/partner-api.md), so nobody can present it after that. Dropping the
  // oldest entry early is safe too: the service refuses a second exchange (GRANT_INVALID), this
  // memory only turns that refusal into a clearer one and serves the owning session.
  const ttlMs = options.ttlMs ?? 5 * 60_000;
  const maxEntries = options.maxEntries ?? 1000;
  // Keyed by a digest: the partner holds grant codes no longer than it must.
  const entries = new Map<string, { promise: Promise<ExchangeResponse>; sessionId: string; at: number }>();

  // Oldest first (Map keeps insertion order); leaves room for the entry about to be added.
  function prune(now: number): void {
    for (const [key, entry] of entries) {
      if (now - entry.at < ttlMs && entries.size < maxEntries) break;
      entries.delete(key);
    }
  }

  return {
    async exchangeOnce(grantCode, sessionId, exchange) {
      const now = options.now();
      prune(now);
      const key = createHash('sha256').update(grantCode).digest('base64url');
      const known = entries.get(key);
      if (known)
        return known.sessionId === sessionId
          ? { status: 'remembered', response: await known.promise }
          : { status: 'used' };
      const promise = exchange(grantCode);
      entries.set(key, { promise, sessionId, at: now });
      try {
        return { status: 'exchanged', response: await promise };
      } catch (error) {
        entries.delete(key);
        throw error;
      }
    },
    get size() {
      return entries.size;
    },
  };
}

/** `new`: first seen now; `remembered`: seen before in this session; `used`: in another; `full`: see below */
export type AttestationClaim = 'new' | 'remembered' | 'used' | 'full';

export interface AttestationMemory {
  /**
   * Records that `sessionId` presented the (already verified) attestation `jti`, valid until
   * `exp` (Unix seconds).
   */
  claim(jti: string, exp: number, sessionId: string): AttestationClaim;
  /** number of attestations remembered right now */
  readonly size: number;
}

/**
 * Remembers every attestation `jti` until its `exp`: the service never learns that an
 * attestation was used (that is the point of the rail), so only the partner can stop it being
 * presented twice. Forgetting a jti before its exp would let a copy through, so when the memory
 * is full of live entries it answers `full` (the caller refuses) instead of evicting one.
 *
 * @example
 * const memory = createAttestationMemory({ now: Date.now });
 * if (memory.claim(result.jti, result.exp, sessionId) !== 'new') refuse();
 */
export function createAttestationMemory(options: { now: () => number; maxEntries?: number }): AttestationMemory {
  // Attestations live 300 s, so this holds 300 s of traffic: ~33 verifications a second.
  const maxEntries = options.maxEntries ?? 10_000;
  const seen = new Map<string, { exp: number; sessionId: string }>();

  return {
    claim(jti, exp, sessionId) {
      const nowSeconds = Math.floor(options.now() / 1000);
      // Insertion order is nearly exp order (every attestation lives as long): stop at the first
      // live entry, unless the memory is full, then sweep it all.
      for (const [key, entry] of seen) {
        if (entry.exp <= nowSeconds) seen.delete(key);
        else if (seen.size < maxEntries) break;
      }
      const known = seen.get(jti);
      if (known) return known.sessionId === sessionId ? 'remembered' : 'used';
      if (seen.size >= maxEntries) return 'full';
      seen.set(jti, { exp, sessionId });
      return 'new';
    },
    get size() {
      return seen.size;
    },
  };
}
