/**
 * STANDARD pages: the index, the widget with data-partner-id, the success page that exchanges the
 * grant, server-verify (and a variant that never confirms), and a page that is its own success
 * path. Every page takes `?locale=` (docs/example-partner.md, "Languages"): the page is written in
 * that language, the widget speaks it, and the page's links and success path carry it on.
 */
import type { FastifyInstance } from 'fastify';
import { findScopeProblem, type Scope } from '../../sdk/index.ts';
import type { PartnerContext } from '../context.ts';
import { DEFAULT_PAGE_LOCALE, PAGE_LOCALES, readPageLocale, WORDS, type IndexLink, type PageLocale } from '../copy.ts';
import { describeScopes } from '../facts.ts';
import type { PageValues } from '../pages.ts';

interface WidgetQuery {
  scopes?: string;
  theme?: string;
  locale?: string;
  /** `?proof=1`: data-client-proof-mode="true" (the EUDI wallet path, design.md §11) */
  proof?: string;
}

/** The widget options a page accepts in its query, each checked against what the loader allows. */
export interface WidgetOptions {
  /** the page's language, `?locale=` when it is one of the seven, else English */
  pageLocale: PageLocale;
  scopes: Scope[];
  theme: 'dark' | 'light' | 'auto';
  /** data-locale: the page's language, or `auto` when asked for (then the widget reads `<html lang>`) */
  locale: PageLocale | 'auto';
  clientProofMode: boolean;
}

const THEMES = ['dark', 'light', 'auto'] as const;

/**
 * Reads `?scopes=&theme=&locale=&proof=` so testers can try combinations without editing HTML;
 * anything the loader would not accept falls back to the default instead of being reflected.
 *
 * @example readWidgetOptions({ scopes: 'isAdult,isFrench', locale: 'de' })
 * // { pageLocale: 'de', scopes: ['isAdult', 'isFrench'], theme: 'dark', locale: 'de', clientProofMode: false }
 */
export function readWidgetOptions(query: WidgetQuery): WidgetOptions {
  const scopes = typeof query.scopes === 'string' ? query.scopes.split(',').filter(Boolean) : [];
  const clientProofMode = query.proof === '1';
  const pageLocale = readPageLocale(query.locale);
  return {
    pageLocale,
    scopes: scopes.length > 0 && findScopeProblem(scopes, clientProofMode) === null ? (scopes as Scope[]) : ['isAdult'],
    theme: (THEMES as readonly unknown[]).includes(query.theme) ? (query.theme as WidgetOptions['theme']) : 'dark',
    locale: query.locale === 'auto' ? 'auto' : pageLocale,
    clientProofMode,
  };
}

/**
 * A page's address with the options that differ from the defaults, in one fixed order: what the
 * index links to, and the same page's success path (the loader compares path and query).
 *
 * @example pageHref('/standard', { locale: 'de', proof: true }) // '/standard?locale=de&proof=1'
 */
export function pageHref(
  path: string,
  options: { locale?: PageLocale | 'auto'; scopes?: readonly string[]; theme?: string; proof?: boolean },
): string {
  const params: string[] = [];
  if (options.locale && options.locale !== DEFAULT_PAGE_LOCALE) params.push(`locale=${options.locale}`);
  if (options.scopes && options.scopes.join(',') !== 'isAdult') params.push(`scopes=${options.scopes.join(',')}`);
  if (options.theme && options.theme !== 'dark') params.push(`theme=${options.theme}`);
  if (options.proof) params.push('proof=1');
  return params.length > 0 ? `${path}?${params.join('&')}` : path;
}

/** What every page's header and footer use: its language and the way back to the shop in it. */
export function shopValues(locale: PageLocale): PageValues {
  return { lang: locale, homeHref: pageHref('/', { locale }), backToShop: WORDS[locale].backToShop };
}

/** The loader attributes and the shopper's words of a widget page. */
export function widgetPageValues(
  page: 'standard' | 'server-verify' | 'server-verify-timeout' | 'same-page' | 'blind' | 'blind-server-verify',
  options: WidgetOptions,
): PageValues {
  const words = WORDS[options.pageLocale];
  return {
    ...shopValues(options.pageLocale),
    title: words.pages[page].title,
    heading: words.pages[page].heading,
    lead: page.startsWith('blind') ? words.leads.blind : words.leads.standard,
    asks: words.asks,
    asked: describeScopes(options.scopes, options.pageLocale),
    scopes: options.scopes.join(','),
    theme: options.theme,
    locale: options.locale,
    clientProofMode: String(options.clientProofMode),
  };
}

const INDEX_LINKS: ReadonlyArray<[IndexLink, string, Parameters<typeof pageHref>[1]]> = [
  ['standard', '/standard', {}],
  ['scopes', '/standard', { scopes: ['isAdult', 'isFrench', 'isUnique'], theme: 'light' }],
  ['serverVerify', '/server-verify', {}],
  ['serverVerifyTimeout', '/server-verify-timeout', {}],
  ['samePage', '/same-page', {}],
  ['proof', '/standard', { proof: true }],
  ['blind', '/blind', {}],
  ['blindServerVerify', '/blind-server-verify', {}],
  ['blindProof', '/blind', { proof: true }],
];

/** The index in `locale`: its links carry the locale, its language switch marks the current one. */
export function indexValues(locale: PageLocale): PageValues {
  const words = WORDS[locale];
  const values: PageValues = {
    ...shopValues(locale),
    heading: words.index.heading,
    lead: words.index.lead,
    languages: words.index.languages,
  };
  for (const [link, path, options] of INDEX_LINKS) {
    values[`${link}Href`] = pageHref(path, { ...options, locale });
    values[`${link}Label`] = words.links[link];
  }
  for (const other of PAGE_LOCALES) values[`current_${other}`] = other === locale ? 'page' : 'false';
  return values;
}

/** @example registerStandardPages(app, context) */
export function registerStandardPages(app: FastifyInstance, context: PartnerContext): void {
  const base = { serviceUrl: context.serviceUrl, partnerId: context.partner.id };

  app.get<{ Querystring: WidgetQuery }>('/', async (request, reply) =>
    context.pages.send(reply, 'index', { ...base, ...indexValues(readPageLocale(request.query.locale)) }),
  );

  for (const page of ['standard', 'server-verify', 'server-verify-timeout'] as const) {
    app.get<{ Querystring: WidgetQuery }>(`/${page}`, async (request, reply) => {
      const options = readWidgetOptions(request.query);
      return context.pages.send(reply, page, {
        ...base,
        ...widgetPageValues(page, options),
        successPath: pageHref('/success', { locale: options.pageLocale }),
      });
    });
  }

  app.get<{ Querystring: WidgetQuery }>('/same-page', async (request, reply) => {
    const options = readWidgetOptions(request.query);
    const words = WORDS[options.pageLocale];
    return context.pages.send(reply, 'same-page', {
      ...base,
      ...widgetPageValues('same-page', options),
      // The page itself, as the index links to it: the widget then hands the result over in place.
      successPath: pageHref('/same-page', {
        locale: options.locale,
        scopes: options.scopes,
        theme: options.theme,
        proof: options.clientProofMode,
      }),
      resultWords: JSON.stringify(words.result),
    });
  });

  app.get<{ Querystring: WidgetQuery }>('/success', async (request, reply) => {
    const locale = readPageLocale(request.query.locale);
    const words = WORDS[locale];
    return context.pages.send(reply, 'success', {
      ...shopValues(locale),
      title: words.resultHeading,
      heading: words.resultHeading,
      checking: words.result.checking,
      resultWords: JSON.stringify(words.result),
    });
  });
}
