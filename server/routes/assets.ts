/**
 * The built widget and pages, served from `config.distDir` (DESIGN §1, §7):
 *
 *   GET /v4/loader.min.js         5 minutes of cache + strong ETag: partners pick up a new loader soon
 *   GET /v4/ui.<hash>.js          immutable for a year: the name changes with the content
 *   GET /m/v/:requestId           the sandbox phone page (sandbox mode only), never cached
 *   GET /m/assets/<file>          its hashed assets
 *   GET /demo                     the designers' page (sandbox mode only)
 *   GET /demo/assets/<file>       its hashed assets
 *   GET /favicon.ico, /<file>     the files of the top-level public/ folder (what pages ask for at the root)
 *
 * File names come from a strict pattern, never from the URL path as such, so nothing outside
 * dist/ and public/ can be named. A missing dist/ answers 404 NOT_FOUND and is logged once.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LOADER_PATH } from '../../src/protocol/api.ts';
import type { AppDeps } from '../deps.ts';
import { ServiceError } from '../errors.ts';
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

interface CachedFile {
  mtimeMs: number;
  size: number;
  body: Buffer;
  etag: string;
}

/** @example registerAssetRoutes(app, deps) // called once by createApp */
export function registerAssetRoutes(app: FastifyInstance, deps: AppDeps): void {
  const distDir = deps.config.distDir;
  const cache = new Map<string, CachedFile>();
  let warnedNotBuilt = false;

  /**
   * Reads a file under dist/ (re-read when the build replaced it), or null. A cached file is
   * answered without yielding to the event loop (a synchronous stat, microseconds): the UI bundle
   * is requested beside the create request, and an awaited stat let the create's ~20 ms of work
   * run first, so the bundle arrived after the create's answer instead of before it (issue 18,
   * bench:widget's breakdown).
   */
  async function load(relative: string, request: FastifyRequest, base = distDir): Promise<CachedFile | null> {
    const path = join(base, relative);
    try {
      const info = statSync(path);
      const hit = cache.get(path);
      if (hit && hit.mtimeMs === info.mtimeMs && hit.size === info.size) return hit;
      const body = await readFile(path);
      const file = {
        mtimeMs: info.mtimeMs,
        size: info.size,
        body,
        etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
      };
      cache.set(path, file);
      return file;
    } catch {
      if (!warnedNotBuilt) {
        try {
          await stat(join(distDir, 'v4'));
        } catch {
          warnedNotBuilt = true;
          request.log.warn({ distDir }, 'widget not built: run `npm run build`');
        }
      }
      return null;
    }
  }

  async function send(
    request: FastifyRequest,
    reply: FastifyReply,
    relative: string,
    headers: Record<string, string>,
    base = distDir,
  ): Promise<FastifyReply> {
    const file = await load(relative, request, base);
    if (!file) throw new ServiceError('NOT_FOUND', { cause: `not in dist: ${relative}` });
    const ext = relative.slice(relative.lastIndexOf('.') + 1);
    reply.headers({
      'Content-Type': TYPES[ext] ?? 'application/octet-stream',
      'X-Content-Type-Options': 'nosniff',
      ETag: file.etag,
      ...headers,
    });
    const ifNoneMatch = request.headers['if-none-match'];
    if (ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim() === file.etag)) return reply.code(304).send();
    return reply.send(file.body);
  }

  const script = { 'Access-Control-Allow-Origin': '*', 'Cross-Origin-Resource-Policy': 'cross-origin' };
  const page = { 'Content-Security-Policy': PAGE_CSP, 'Referrer-Policy': 'no-referrer', 'X-Frame-Options': 'DENY' };

  app.get(LOADER_PATH, (request, reply) =>
    send(request, reply, 'v4/loader.min.js', { ...script, 'Cache-Control': 'public, max-age=300' }),
  );

  app.get<{ Params: { file: string } }>('/v4/:file', (request, reply) => {
    if (!UI_NAME.test(request.params.file)) throw new ServiceError('NOT_FOUND');
    return send(request, reply, `v4/${request.params.file}`, { ...script, 'Cache-Control': IMMUTABLE });
  });

  // public/ (the favicon): one route per file, in every mode.
  for (const name of existsSync(PUBLIC_DIR) ? readdirSync(PUBLIC_DIR).filter((n) => PUBLIC_NAME.test(n)) : []) {
    app.get(`/${name}`, (request, reply) =>
      send(request, reply, name, { 'Cache-Control': 'public, max-age=86400' }, PUBLIC_DIR),
    );
  }

  // Sandbox pages: production answers 404 like any unknown route (DESIGN §1).
  if (deps.config.mode !== 'sandbox') return;

  const assets = (prefix: string, dir: string): void => {
    app.get<{ Params: { file: string } }>(`${prefix}/assets/:file`, (request, reply) => {
      if (!ASSET_NAME.test(request.params.file)) throw new ServiceError('NOT_FOUND');
      return send(request, reply, `${dir}/assets/${request.params.file}`, { 'Cache-Control': IMMUTABLE });
    });
  };

  app.get<{ Params: { requestId: string } }>('/m/v/:requestId', (request, reply) => {
    if (!REQUEST_ID.test(request.params.requestId)) throw new ServiceError('NOT_FOUND');
    return send(request, reply, 'phone/index.html', { ...page, 'Cache-Control': 'no-store' });
  });
  assets('/m', 'phone');

  const demo = (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> =>
    send(request, reply, 'demo/index.html', { ...page, 'Cache-Control': 'no-cache' });
  app.get('/demo', demo);
  app.get('/demo/', demo);
  assets('/demo', 'demo');
}
