/**
 * On-the-fly compression (@fastify/compress) for answers that are not files of the build: the API
 * documentation under /docs (Swagger UI's page, its 2 MB of scripts and styles, the OpenAPI
 * document). The build's own files are precompressed instead (http/static-files.ts); the partner
 * API's answers stay as they are (small, and never worth a compression context per call).
 *
 * Registered inside the scope it compresses (Fastify encapsulation), never on the whole app.
 */
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/**
 * Brotli or gzip by Accept-Encoding (q-values honoured), answers under 1 KB as they are. Every
 * answer of the scope carries `Vary: Accept-Encoding`, the uncompressed ones too (the plugin marks
 * only those it compresses), so a shared cache never hands a stored identity answer to everyone.
 * Request bodies are never decompressed: nothing here reads one.
 *
 * @example await app.register(async (docs) => { await registerCompression(docs); await docs.register(swaggerUi) })
 */
export async function registerCompression(scope: FastifyInstance): Promise<void> {
  await scope.register(compress, { encodings: ['br', 'gzip'], globalDecompression: false });
  // Runs before the plugin's own hook (route-level), which then sees the token and adds none.
  scope.addHook('onSend', async (_request, reply, payload) => {
    const vary = String(reply.getHeader('vary') ?? '');
    if (!/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(vary))
      reply.header('Vary', vary ? `${vary}, accept-encoding` : 'accept-encoding');
    return payload;
  });
}
