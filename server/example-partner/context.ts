/**
 * What every route file of the example partner receives. Its own file so that `app.ts` can
 * import the route files without them importing `app.ts` back.
 */
import type { FastifyInstance } from 'fastify';
import type { PartnerClient } from '../sdk/index.ts';
import type { PageRenderer } from './pages.ts';
import type { ExchangeMemory } from './results.ts';
import type { SessionCookies } from './session.ts';

/** Everything a route file of the example partner may use. */
export interface PartnerContext {
  /** this site's own origin, e.g. http://localhost:8788 (billing sessions are bound to it) */
  readonly origin: string;
  readonly serviceUrl: string;
  readonly apiUrl: string;
  readonly partner: { readonly id: string; readonly secret: string };
  readonly client: PartnerClient;
  readonly exchanges: ExchangeMemory;
  /** the visitor's session (signed cookie) that a verified result is bound to */
  readonly sessions: SessionCookies;
  readonly pages: PageRenderer;
}

/** One surface of the site: registers its routes on the app. */
export type PartnerRoutes = (app: FastifyInstance, context: PartnerContext) => void;
