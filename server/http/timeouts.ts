/**
 * The edge's timeouts (design.md §1, the edge; docs/operations.md#running-the-service, "Timeouts"),
 * as Fastify server options: a client that sends its request slowly — headers or body trickling in
 * a byte at a time — is cut, while a request already received may take as long as its answer needs
 * (a long poll holds its answer up to 25 s).
 *
 * Node measures `requestTimeout` from a request's first byte until the whole request (headers and
 * body) has been received, and stops there: a long poll sends no body, so its wait is never
 * counted. A socket idle timeout (Fastify's `connectionTimeout`) is not used: it would cut a
 * long poll's silent 25 s, and a body trickling one byte a second is never idle.
 */
import type { ServerOptions } from 'node:http';
import type { Config } from '../config.ts';

/** How often Node looks for requests past their deadline, at most (Node's own default is 30 s). */
const MAX_CHECK_INTERVAL_MS = 1_000;

/**
 * Fastify options for the configured timeouts: a request not received within
 * `requestTimeoutMs` (its headers within `headersTimeoutMs`) is answered 408 and its connection
 * closed, at most about a second late; an idle kept-alive connection closes after `keepAliveTimeoutMs`.
 *
 * @example Fastify({ ...edgeTimeouts(config), logger })
 */
export function edgeTimeouts(config: Pick<Config, 'requestTimeoutMs' | 'headersTimeoutMs' | 'keepAliveTimeoutMs'>): {
  requestTimeout: number;
  keepAliveTimeout: number;
  connectionTimeout: number;
  http: ServerOptions;
} {
  return {
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    connectionTimeout: 0,
    http: {
      requestTimeout: config.requestTimeoutMs,
      headersTimeout: config.headersTimeoutMs,
      // Deadlines are checked on this interval: a quarter of the shortest, at most a second.
      connectionsCheckingInterval: Math.min(MAX_CHECK_INTERVAL_MS, Math.floor(config.headersTimeoutMs / 4)),
    },
  };
}
