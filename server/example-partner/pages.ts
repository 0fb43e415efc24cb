/**
 * The example partner's pages: static HTML templates from `public/`, filled with a few
 * escaped values, sent under a strict Content-Security-Policy (no 'unsafe-inline' anywhere:
 * the widget must work on pages like this one).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { FastifyReply } from 'fastify';

const PUBLIC_DIR = new URL('./public/', import.meta.url);

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** Values a template may use as `{{name}}`; every value is HTML-escaped when filled in. */
export type PageValues = Record<string, string>;

export interface PageRenderer {
  /** Sends `public/<name>.html` with its placeholders filled and the partner's security headers. */
  send(reply: FastifyReply, name: string, values?: PageValues): FastifyReply;
  /** The static asset `public/<file>` (JS, CSS), or null when there is none by that name. */
  asset(file: string): { body: Buffer; contentType: string } | null;
}

/**
 * The CSP every example page is served with: scripts and styles only from the page's own
 * origin and the service's, connections to the same two, nothing inline.
 *
 * @example contentSecurityPolicy('http://localhost:8787')
 * // "default-src 'self'; script-src 'self' http://localhost:8787; …"
 */
export function contentSecurityPolicy(serviceOrigin: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${serviceOrigin}`,
    `style-src 'self' ${serviceOrigin}`,
    `connect-src 'self' ${serviceOrigin}`,
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** @example escapeHtml('<a href="x">') // '&lt;a href=&quot;x&quot;&gt;' */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/**
 * Reads every template and asset once, at startup: a missing placeholder value is a
 * programming error and throws, so a page never ships with `{{…}}` in it.
 *
 * @example
 * const pages = createPageRenderer({ serviceOrigin: 'http://localhost:8787' });
 * app.get('/', (_req, reply) => pages.send(reply, 'index', { serviceUrl }));
 */
export function createPageRenderer(options: { serviceOrigin: string; publicDir?: URL }): PageRenderer {
  const dir = options.publicDir ?? PUBLIC_DIR;
  const templates = new Map<string, string>();
  const assets = new Map<string, { body: Buffer; contentType: string }>();
  for (const file of readdirSync(dir)) {
    const ext = extname(file);
    const path = join(dir.pathname, file);
    if (ext === '.html') templates.set(file.slice(0, -ext.length), readFileSync(path, 'utf8'));
    else if (CONTENT_TYPES[ext]) assets.set(file, { body: readFileSync(path), contentType: CONTENT_TYPES[ext] });
  }
  const csp = contentSecurityPolicy(options.serviceOrigin);

  return {
    send(reply, name, values = {}) {
      const template = templates.get(name);
      if (template === undefined) throw new Error(`example partner: no page public/${name}.html`);
      const html = template.replace(/\{\{(\w+)\}\}/g, (_match, key: string) => {
        const value = values[key];
        if (value === undefined) throw new Error(`example partner: page ${name} needs a value for {{${key}}}`);
        return escapeHtml(value);
      });
      return reply
        .header('Content-Type', 'text/html; charset=utf-8')
        .header('Content-Security-Policy', csp)
        .header('Cache-Control', 'no-store')
        .header('Referrer-Policy', 'strict-origin-when-cross-origin')
        .header('X-Content-Type-Options', 'nosniff')
        .send(html);
    },
    asset(file) {
      return assets.get(file) ?? null;
    },
  };
}
