/**
 * The built widget and pages, served from `config.distDir` (design.md §1, §7):
 *
 *   GET /v4/loader.min.js         5 minutes of cache: partners pick up a new loader soon
 *   GET /v4/ui.<hash>.js          immutable for a year: the name changes with the content
 *   GET /m/v/:requestId           the phone page (both modes, design.md §12), never cached
 *   GET /m/v/:requestId/done      the same page, its done view (design.md §19)
 *   GET /m/assets/<file>          its hashed assets
 *   GET /m/sandbox/<file>         its sandbox wing, the persona picker (sandbox mode only: production
 *                                 answers 404 to it asked by name, as to any unknown route)
 *   GET /demo                     the designers' page (sandbox mode only)
 *   GET /demo/assets/<file>       its hashed assets
 *   GET /demo/config.json         what the demo page cannot know by itself: the example partner's URL
 *   GET /favicon.ico, /<file>     the files of the top-level public/ folder (what pages ask for at the root)
 *
 * Each is sent compressed when the request accepts it: brotli or gzip written by the build beside
 * the file, chosen by Accept-Encoding, with `Vary: Accept-Encoding`, Last-Modified and an ETag per
 * variant (http/static-files.ts; design.md §1, the edge). HEAD answers the same headers.
 *
 * File names come from a strict pattern, never from the URL path as such, so nothing outside
 * dist/ and public/ can be named. A missing dist/ answers 404 NOT_FOUND and is logged once, at boot.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LOADER_PATH } from '../../src/protocol/wire.ts';
import type { AppDeps } from '../deps.ts';
import { ServiceError } from '../errors.ts';
import { PUBLIC_READ_CORS } from '../http/cors.ts';
import { PROJECT_ROOT } from '../paths.ts';

const TYPES: Record<string, string> = {
  js: 'application/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  html: 'text/html; charset=utf-8',
  svg: 'image/svg+xml',
  ico: 'image/x-icon',
  png: 'image/png',
  woff2: 'font/woff2',
  json: 'application/json; charset=utf-8',
};

/** A hashed asset name as Vite writes it: `index-DJo2ynIG.js`. No slash, no dot-dot. */
const ASSET_NAME = /^[\w-]+\.(js|css|svg|png|woff2|json)$/;
const UI_NAME = /^ui\.[\w-]+\.js$/;
const REQUEST_ID = /^[\w-]{1,128}$/;
const PUBLIC_DIR = join(PROJECT_ROOT, 'public');
const PUBLIC_NAME = /^[\w-]+\.(ico|svg|png)$/;

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The pages run under a CSP without 'unsafe-inline': scripts and styles from this origin only
 * (the widget's constructed stylesheets need no exception), no framing, no plugins.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** @example registerAssetRoutes(app, deps) // called once by createApp, after registerStaticFiles */
const PAGE_HEADERS = {
  'Content-Security-Policy': PAGE_CSP,
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
};

/**
 * The phone page (its script reads the request from the address), e.g. with 400 for a provider
 * callback that names no login of ours. Never cached: its route keeps the HTTP layer's no-store
 * (http/route-policy.ts), as the API routes do.
 *
 * @example return sendPhonePage(reply, deps.config.distDir, 400)
 */
export function sendPhonePage(reply: FastifyReply, distDir: string, status = 200): FastifyReply {
  return reply.code(status).sendFile('phone/index.html', distDir, {
    onFile: () => {
      reply.headers({
        'Content-Type': TYPES.html!,
        'X-Content-Type-Options': 'nosniff',
        ...PAGE_HEADERS,
      });
    },
  });
}

export function registerAssetRoutes(app: FastifyInstance, deps: AppDeps): void {
  const distDir = deps.config.distDir;
  if (!existsSync(join(distDir, 'v4'))) app.log.warn({ distDir }, 'widget not built: run `npm run build`');

  /** Sends `relative` under `base` (dist/ unless said), compressed when the request accepts it; 404 when absent. */
  function send(reply: FastifyReply, relative: string, headers: Record<string, string>, base = distDir): FastifyReply {
    const ext = relative.slice(relative.lastIndexOf('.') + 1);
    return reply.sendFile(relative, base, {
      // Set once the file is found (200 and 304 alike): a 404 keeps the error's own headers.
      onFile: () => {
        reply.headers({
          'Content-Type': TYPES[ext] ?? 'application/octet-stream',
          'X-Content-Type-Options': 'nosniff',
          ...headers,
        });
      },
    });
  }

  const script = { 'Cross-Origin-Resource-Policy': 'cross-origin' };
  const page = PAGE_HEADERS;
  // These files may be cached: each route sets its own Cache-Control (http/route-policy.ts).
  const cacheable = { config: { noStore: false } };
  // The widget's scripts, loaded by any partner page: open to every origin (route policy).
  const openScript = { config: { noStore: false, cors: PUBLIC_READ_CORS } };

  app.get(LOADER_PATH, openScript, (_request, reply) =>
    send(reply, 'v4/loader.min.js', { ...script, 'Cache-Control': 'public, max-age=300' }),
  );

  app.get<{ Params: { file: string } }>('/v4/:file', openScript, (request, reply) => {
    if (!UI_NAME.test(request.params.file)) throw new ServiceError('NOT_FOUND');
    return send(reply, `v4/${request.params.file}`, { ...script, 'Cache-Control': IMMUTABLE });
  });

  // public/ (the favicon): one route per file, in every mode.
  for (const name of existsSync(PUBLIC_DIR) ? readdirSync(PUBLIC_DIR).filter((n) => PUBLIC_NAME.test(n)) : []) {
    app.get(`/${name}`, cacheable, (_request, reply) =>
      send(reply, name, { 'Cache-Control': 'public, max-age=86400' }, PUBLIC_DIR),
    );
  }

  const assets = (prefix: string, dir: string, folder = 'assets'): void => {
    app.get<{ Params: { file: string } }>(`${prefix}/${folder}/:file`, cacheable, (request, reply) => {
      if (!ASSET_NAME.test(request.params.file)) throw new ServiceError('NOT_FOUND');
      return send(reply, `${dir}/${folder}/${request.params.file}`, { 'Cache-Control': IMMUTABLE });
    });
  };

  // The phone page, in both modes: a production request is proven there too (design.md §12).
  app.get<{ Params: { requestId: string } }>('/m/v/:requestId', (request, reply) => {
    if (!REQUEST_ID.test(request.params.requestId)) throw new ServiceError('NOT_FOUND');
    return sendPhonePage(reply, distDir);
  });
  // design.md §19: the done view a wallet's redirect_uri opens (the page reads its fragment)
  app.get<{ Params: { requestId: string } }>('/m/v/:requestId/done', (request, reply) => {
    if (!REQUEST_ID.test(request.params.requestId)) throw new ServiceError('NOT_FOUND');
    return sendPhonePage(reply, distDir);
  });
  assets('/m', 'phone');

  // The phone page's sandbox wing and the designers' page: production answers 404 like any
  // unknown route (design.md §1, §4).
  if (deps.config.mode !== 'sandbox') return;

  assets('/m', 'phone', 'sandbox');

  const demo = (_request: FastifyRequest, reply: FastifyReply): FastifyReply =>
    send(reply, 'demo/index.html', { ...page, 'Cache-Control': 'no-cache' });
  app.get('/demo', cacheable, demo);
  app.get('/demo/', cacheable, demo);
  assets('/demo', 'demo');
  // The built page is static; the example partner's port is configuration (PARTNER_PORT).
  app.get('/demo/config.json', cacheable, async (_request, reply) =>
    reply.header('Cache-Control', 'no-cache').send({ partnerUrl: `http://localhost:${deps.config.partnerPort}` }),
  );
}
