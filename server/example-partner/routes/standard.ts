/**
 * STANDARD pages: the widget with data-partner-id, the success page that exchanges the grant,
 * server-verify (and a variant that never confirms), and a page that is its own success path.
 */
import type { FastifyInstance } from 'fastify';
import { findScopeProblem } from '../../sdk/index.ts';
import type { PartnerContext } from '../context.ts';

interface WidgetQuery {
  scopes?: string;
  theme?: string;
  locale?: string;
  /** `?proof=1`: data-client-proof-mode="true" (the EUDI wallet path, DESIGN §11) */
  proof?: string;
}

/** The widget options a page accepts in its query, each checked against what the loader allows. */
export interface WidgetOptions {
  scopes: string;
  theme: string;
  locale: string;
  /** 'true' or 'false', for data-client-proof-mode */
  clientProofMode: string;
}

/**
 * Reads `?scopes=&theme=&locale=` so testers can try combinations without editing HTML;
 * anything the loader would not accept falls back to the default instead of being reflected.
 *
 * @example readWidgetOptions({ scopes: 'isAdult,isFrench', theme: 'light' })
 * // { scopes: 'isAdult,isFrench', theme: 'light', locale: 'fr' }
 */
export function readWidgetOptions(query: WidgetQuery): WidgetOptions {
  const scopes = typeof query.scopes === 'string' ? query.scopes.split(',').filter(Boolean) : [];
  const proof = query.proof === '1';
  return {
    clientProofMode: String(proof),
    scopes: scopes.length > 0 && findScopeProblem(scopes, proof) === null ? scopes.join(',') : 'isAdult',
    theme: ['dark', 'light', 'auto'].includes(query.theme ?? '') ? (query.theme as string) : 'dark',
    locale: ['fr', 'en', 'de', 'es', 'it', 'nl', 'pt', 'auto'].includes(query.locale ?? '')
      ? (query.locale as string)
      : 'fr',
  };
}

/** @example registerStandardPages(app, context) */
export function registerStandardPages(app: FastifyInstance, context: PartnerContext): void {
  const base = { serviceUrl: context.serviceUrl, partnerId: context.partner.id };

  app.get('/', async (_request, reply) => context.pages.send(reply, 'index', base));

  const widgetPages = ['standard', 'server-verify', 'server-verify-timeout', 'same-page'] as const;
  for (const page of widgetPages) {
    app.get<{ Querystring: WidgetQuery }>(`/${page}`, async (request, reply) =>
      context.pages.send(reply, page, { ...base, ...readWidgetOptions(request.query) }),
    );
  }

  app.get('/success', async (_request, reply) => context.pages.send(reply, 'success', base));
}
