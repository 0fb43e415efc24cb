/**
 * Files from disk, for every route that sends one (design.md §1, the edge): @fastify/static's `reply.sendFile`
 * with `preCompressed`. The build writes `<file>.br` and `<file>.gz` beside each text file
 * (scripts/build.ts `precompress`); the plugin picks the variant the request's Accept-Encoding
 * allows (q-values honoured, `br;q=0` is no brotli, `*` counts as gzip), else the file itself,
 * and answers with `Content-Encoding` and `Vary: Accept-Encoding` either way. It streams from
 * disk, answers HEAD, and sets `Last-Modified` and a weak ETag (`W/"<size>-<mtime>"`, so each
 * variant has its own) with If-None-Match / If-Modified-Since giving 304.
 *
 * The routes choose the file (from a strict name pattern, never the URL path as such) and set
 * Content-Type, Cache-Control and their security headers themselves; the plugin serves nothing
 * on its own (`serve: false`).
 */
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** @example await registerStaticFiles(app) // then reply.sendFile('v4/loader.min.js', distDir) */
export async function registerStaticFiles(app: FastifyInstance): Promise<void> {
  await app.register(fastifyStatic, {
    serve: false,
    preCompressed: true,
    // the routes set these two from their own tables
    cacheControl: false,
    contentType: false,
    // a Range over a compressed variant is legal but no client of ours needs one
    acceptRanges: false,
    index: false,
    dotfiles: 'deny',
  });
}
