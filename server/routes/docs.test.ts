import { Validator } from '@seriousme/openapi-schema-validator';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, TOO_MANY_REQUESTS } from '../../src/protocol/errors.ts';
import { makeTempDir, makeTestApp, PARTNERS, signedInjectOptions, type TestApp } from '../test/helpers.ts';
import { PAGE_CSP } from './assets.ts';
import { docsCsp, SIGNED_ROUTE_ERRORS, SIGNED_ROUTE_SECURITY, SWAGGER_UI_INLINE_STYLES } from './docs.ts';

let t: TestApp;
let doc: {
  openapi: string;
  paths: Record<
    string,
    Record<
      string,
      {
        tags?: string[];
        security?: unknown;
        requestBody?: { content: Record<string, { schema: { required?: string[]; properties: object } }> };
        parameters?: Array<{ in: string; name: string; required: boolean; schema: object }>;
        responses: Record<
          string,
          {
            description: string;
            headers?: Record<string, { required?: boolean; schema: object }>;
            content?: Record<string, { schema: { properties: { error?: { enum?: string[] } } } }>;
          }
        >;
      }
    >
  >;
  components: { securitySchemes: Record<string, { type: string; in: string; name: string }> };
};

beforeAll(async () => {
  t = await makeTestApp();
  doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json();
});
afterAll(async () => t.close());

const JSON_TYPE = { 'content-type': 'application/json' };

/** Every documented operation that takes a body. */
function writeOperations(): Array<{ path: string; method: string; operation: { security?: unknown } }> {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => ['post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, operation]) => ({ path, method, operation })),
  );
}

/** Every error code a path's responses list, with its status. */
function documentedErrors(path: string, method = 'post'): Array<[string, string]> {
  return Object.entries(doc.paths[path]![method]!.responses).flatMap(([status, response]) =>
    (response.content?.['application/json']?.schema.properties?.error?.enum ?? []).map((code): [string, string] => [
      status,
      code,
    ]),
  );
}

describe('the OpenAPI document at /docs/json', () => {
  it('is OpenAPI 3.1', () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
  });

  it('is a valid OpenAPI 3.1 document for an independent validator', async () => {
    const validator = new Validator();
    expect(await validator.validate(doc)).toEqual({ valid: true });
    // The validator does refuse a broken document (a response without its description).
    const broken = structuredClone(doc);
    delete (broken.paths['/v1/exchange']!.post!.responses['401'] as { description?: string }).description;
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('documents the EUDI wallet endpoints (design.md §11) with their OpenID4VP error shape', () => {
    const directPost = doc.paths['/oid4vp/response/{requestId}']!.post!;
    expect(Object.keys((directPost.requestBody as { content: object }).content)).toEqual([
      'application/x-www-form-urlencoded',
    ]);
    expect(Object.keys(directPost.responses)).toEqual(expect.arrayContaining(['200', '400']));
    expect(documentedErrors('/oid4vp/response/{requestId}')).toContainEqual(['400', 'invalid_request']);
    expect(doc.paths['/api/w/wallet-response/{requestId}']!.post!.responses['400']!.description).toMatch(
      /stays waiting/,
    );
  });

  it('documents exchange and introspection with a request body and the signing headers as security', () => {
    for (const path of ['/v1/exchange', '/v1/introspect']) {
      const operation = doc.paths[path]!.post!;
      expect(operation.requestBody).toBeDefined();
      expect(operation.security).toEqual([
        { partnerId: [], partnerTimestamp: [], partnerNonce: [], partnerSignature: [] },
      ]);
    }
    expect(Object.values(doc.components.securitySchemes).map((s) => [s.type, s.in, s.name])).toEqual([
      ['apiKey', 'header', 'X-Partner-ID'],
      ['apiKey', 'header', 'X-Partner-Timestamp'],
      ['apiKey', 'header', 'X-Partner-Nonce'],
      ['apiKey', 'header', 'X-Partner-Signature'],
    ]);
  });

  it('lists the exchange errors of docs/partner-api.md#errors-of-the-partner-api under their catalogue status', () => {
    const errors = documentedErrors('/v1/exchange');
    for (const code of [
      'MISSING_HEADERS',
      'INVALID_PARTNER',
      'TIMESTAMP_SKEW',
      'INVALID_SIGNATURE',
      'REPLAY_DETECTED',
      'INVALID_REQUEST',
      'INVALID_GRANT',
      'GRANT_INVALID',
      'INTERNAL_ERROR',
    ] as const) {
      expect(errors).toContainEqual([String(ERRORS[code].status), code]);
    }
  });

  it('lists the introspection errors, and no grant errors there', () => {
    const codes = documentedErrors('/v1/introspect').map(([, code]) => code);
    expect(codes).toEqual(expect.arrayContaining(['INVALID_REQUEST', 'INTERNAL_ERROR', 'INVALID_SIGNATURE']));
    expect(codes).not.toContain('GRANT_INVALID');
  });

  it("documents the billing session as signed, with the errors of docs/adult-blind.md's billing table and the rate-limit body", () => {
    expect(doc.paths['/api/billing/session']!.post!.security).toEqual(SIGNED_ROUTE_SECURITY);
    const errors = documentedErrors('/api/billing/session');
    const table = [
      'FORBIDDEN_RAIL',
      'MISSING_BLIND_APP_ID',
      'MISSING_ORIGIN',
      'INVALID_SCOPES',
      'INVALID_JSON',
      'ORIGIN_NOT_ALLOWED',
    ];
    for (const code of table) expect(errors).toContainEqual([String(ERRORS[code as keyof typeof ERRORS].status), code]);
    expect(errors).toContainEqual(['429', TOO_MANY_REQUESTS]);
  });

  it("gives every write route the edge's errors, and every signed one the signing errors and 415", () => {
    const writes = writeOperations();
    expect(writes.map((w) => w.path)).toEqual(
      expect.arrayContaining(['/v1/exchange', '/v1/introspect', '/api/billing/session']),
    );
    for (const { path, method, operation } of writes) {
      // The wallet's direct_post answers a bad body in OpenID4VP's shape (400 invalid_request), not the catalogue's.
      const walletShaped = documentedErrors(path, method).some(([, code]) => code === 'invalid_request');
      const codes = documentedErrors(path, method).map(([, code]) => code);
      const expected = walletShaped
        ? ['invalid_request', 'PAYLOAD_TOO_LARGE', 'INTERNAL_ERROR']
        : ['INVALID_REQUEST', 'PAYLOAD_TOO_LARGE', 'INTERNAL_ERROR'];
      if (operation.security) expected.push(...SIGNED_ROUTE_ERRORS, 'UNSUPPORTED_MEDIA_TYPE');
      expect(codes, `${method} ${path}`).toEqual(expect.arrayContaining(expected));
      // one response per status, each code under its catalogue status
      for (const [status, code] of documentedErrors(path, method).filter(([, code]) => code !== 'invalid_request')) {
        const expected = code === TOO_MANY_REQUESTS ? 429 : ERRORS[code as keyof typeof ERRORS].status;
        expect(status, `${method} ${path} ${code}`).toBe(String(expected));
      }
    }
  });

  it('lists every error a write route answers to malformed, oversized, unsigned and badly typed requests', async () => {
    const undocumented: string[] = [];
    for (const { path, method, operation } of writeOperations()) {
      const url = path.replace(/\{[^}]+\}/g, 'unknown');
      const verb = method.toUpperCase() as 'POST';
      const probes = [
        { method: verb, url, payload: '{}', headers: JSON_TYPE },
        { method: verb, url, payload: JSON.stringify({ pad: 'x'.repeat(17 * 1024) }), headers: JSON_TYPE },
        ...Object.values(PARTNERS).flatMap((partner) => [
          signedInjectOptions(t.clock, { method: verb, url, partner, body: {} }),
          signedInjectOptions(t.clock, { method: verb, url, partner, body: '{"a":' }),
          signedInjectOptions(t.clock, { method: verb, url, partner, body: '[]' }),
          signedInjectOptions(t.clock, {
            method: verb,
            url,
            partner,
            body: {},
            headers: { 'Content-Type': 'text/plain' },
          }),
        ]),
      ];
      const documented = new Set(documentedErrors(path, method).map(([status, code]) => `${status} ${code}`));
      for (const probe of probes) {
        const res = await t.app.inject(probe);
        if (res.statusCode < 400) continue;
        const answered = `${res.statusCode} ${(res.json() as { error: string }).error}`;
        const route = `${method} ${path}${operation.security ? '' : ' (unsigned)'}`;
        if (!documented.has(answered)) undocumented.push(`${route}: ${answered}`);
      }
    }
    expect([...new Set(undocumented)]).toEqual([]);
  });

  it('documents both create routes with 400 NO_METHOD, the widget one unsigned and the partner one signed', () => {
    for (const path of ['/api/w/verify-request', '/api/partner/verify-request']) {
      expect(documentedErrors(path)).toEqual(
        expect.arrayContaining([
          ['400', 'NO_METHOD'],
          ['400', 'INVALID_SCOPES'],
        ]),
      );
      expect(doc.paths[path]!.post!.responses['400']!.description).toContain(
        '`NO_METHOD`: No enabled verification method can prove these scopes.',
      );
      expect(doc.paths[path]!.post!.responses['201']).toBeDefined();
    }
    expect(doc.paths['/api/w/verify-request']!.post!.security).toBeUndefined();
    expect(doc.paths['/api/partner/verify-request']!.post!.security).toEqual(SIGNED_ROUTE_SECURITY);
    expect(documentedErrors('/api/w/verify-request')).toEqual(
      expect.arrayContaining([
        ['401', 'SESSION_INVALID'],
        ['403', 'ORIGIN_NOT_ALLOWED'],
        ['429', TOO_MANY_REQUESTS],
      ]),
    );
  });

  it('documents both status routes: the path, the query (pt, wait, known), the statuses a client reads', () => {
    const widget = doc.paths['/api/w/verify-status/{requestId}']!.get!;
    const partner = doc.paths['/api/partner/verify-status/{requestId}']!.get!;
    const parameters = (operation: typeof widget) =>
      operation.parameters!.map(({ in: where, name, required }) => `${where} ${name}${required ? '' : '?'}`).sort();
    expect(parameters(widget)).toEqual(['path requestId', 'query known?', 'query pt', 'query wait?']);
    expect(parameters(partner)).toEqual(['path requestId', 'query known?', 'query wait?']);
    expect(widget.parameters!.find((p) => p.name === 'wait')!.schema).toEqual({
      type: 'integer',
      minimum: 0,
      maximum: 25,
    });
    expect(widget.security).toBeUndefined();
    expect(partner.security).toEqual(SIGNED_ROUTE_SECURITY);
    expect(documentedErrors('/api/w/verify-status/{requestId}', 'get')).toEqual(
      expect.arrayContaining([
        ['400', 'INVALID_REQUEST'],
        ['404', 'NOT_FOUND'],
        ['429', 'RATE_LIMITED'],
      ]),
    );
    expect(documentedErrors('/api/partner/verify-status/{requestId}', 'get')).toEqual(
      expect.arrayContaining([
        ['401', 'MISSING_HEADERS'],
        ['404', 'NOT_FOUND'],
        ['429', TOO_MANY_REQUESTS],
      ]),
    );
  });

  it('gives every 429 and 503 a required Retry-After header', () => {
    const answers = Object.values(doc.paths).flatMap((item) =>
      Object.values(item).flatMap((operation) =>
        Object.entries(operation.responses).filter(([status]) => status === '429' || status === '503'),
      ),
    );
    expect(answers.length).toBeGreaterThan(10);
    for (const [, response] of answers) {
      expect(response.headers?.['Retry-After']).toMatchObject({ required: true, schema: { type: 'integer' } });
    }
  });

  it('documents the billing session’s body: origin required, scopes among the ADULT_BLIND rail’s', () => {
    const body = doc.paths['/api/billing/session']!.post!.requestBody!.content['application/json']!.schema;
    expect(body.required).toEqual(['origin']);
    expect(body.properties).toMatchObject({
      origin: { type: 'string' },
      scopes: { type: 'array', items: { enum: ['isAdult', 'isFrench', 'isEU', 'isUnique'] } },
    });
  });

  it('hides the sandbox persona picker, pages, health and the docs themselves', () => {
    const hidden = Object.keys(doc.paths).filter((path) =>
      /^\/(api\/m\/personas|api\/m\/requests\/[^/]+\/(complete|wallet)$|m\/v\/|demo|docs|healthz|readyz|v4\/)/.test(
        path,
      ),
    );
    expect(hidden).toEqual([]);
  });

  it('documents the phone routes production serves: open, a provider’s start, the providers’ callback', () => {
    expect((doc.paths['/api/m/requests/{requestId}/open']?.post as { tags?: string[] } | undefined)?.tags).toEqual([
      'phone',
    ]);
    expect(doc.paths['/api/m/requests/{requestId}/providers/{providerId}/start']?.post?.responses).toHaveProperty(
      '200',
    );
    expect(Object.keys(doc.paths['/m/callback']?.get?.responses ?? {})).toEqual(expect.arrayContaining(['303', '400']));
  });

  it('serves Swagger UI at /docs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs' });
    const html =
      res.statusCode === 302
        ? (await t.app.inject({ method: 'GET', url: res.headers.location as string })).body
        : res.body;
    expect(html).toContain('swagger-ui');
  });

  it('sends Swagger UI, its scripts and the document compressed by Accept-Encoding, the same bytes each way', async () => {
    const staticDir = join(dirname(createRequire(import.meta.url).resolve('@fastify/swagger-ui')), 'static');
    const bundle = readFileSync(join(staticDir, 'swagger-ui-bundle.js'));
    for (const url of ['/docs/static/swagger-ui-bundle.js', '/docs/static/swagger-ui.css', '/docs/json']) {
      const plain = await t.app.inject({ url });
      const br = await t.app.inject({ url, headers: { 'accept-encoding': 'br, gzip' } });
      const gzip = await t.app.inject({ url, headers: { 'accept-encoding': 'br;q=0, gzip' } });
      expect(plain.headers['content-encoding'], url).toBeUndefined();
      expect(br.headers['content-encoding'], url).toBe('br');
      expect(gzip.headers['content-encoding'], url).toBe('gzip');
      for (const res of [plain, br, gzip]) expect(res.headers.vary, url).toBe('accept-encoding');
      expect(brotliDecompressSync(br.rawPayload).equals(plain.rawPayload), url).toBe(true);
      expect(gunzipSync(gzip.rawPayload).equals(plain.rawPayload), url).toBe(true);
      expect(br.rawPayload.length, url).toBeLessThan(plain.rawPayload.length / 2);
    }
    const plain = await t.app.inject({ url: '/docs/static/swagger-ui-bundle.js' });
    expect(plain.rawPayload.equals(bundle)).toBe(true);
    // Swagger UI's page keeps its own CSP through the compression.
    const page = await t.app.inject({ url: '/docs/static/index.html', headers: { 'accept-encoding': 'gzip' } });
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
  });

  it('lets into /docs exactly the inline styles Swagger UI’s scripts create, nothing inline besides', async () => {
    const staticDir = join(dirname(createRequire(import.meta.url).resolve('@fastify/swagger-ui')), 'static');
    const created = ['swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js'].flatMap((file) =>
      [
        ...readFileSync(join(staticDir, file), 'utf8').matchAll(/createElement\("style",null,("(?:[^"\\]|\\.)*")\)/g),
      ].map((match) => JSON.parse(match[1]!) as string),
    );
    expect(created).toEqual(SWAGGER_UI_INLINE_STYLES);
    const csp = (await t.app.inject({ url: '/docs/' })).headers['content-security-policy'] as string;
    expect(csp).toBe(docsCsp(t.deps.config.apiUrl));
    const styleSrc = csp.split('; ').find((directive) => directive.startsWith('style-src '))!;
    expect(styleSrc).toBe(
      `style-src 'self' 'sha256-${createHash('sha256').update(SWAGGER_UI_INLINE_STYLES[0]!).digest('base64')}'`,
    );
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https:(?!\/)/);
    expect(csp).toContain("script-src 'self'; script-src-attr 'none'");
  });

  it('keeps Swagger UI’s CSP on /docs: the API and the pages keep theirs', async () => {
    const dist = makeTempDir('svc-dist-');
    mkdirSync(join(dist.path, 'phone'));
    writeFileSync(join(dist.path, 'phone', 'index.html'), '<!doctype html><title>phone</title>');
    const pages = await makeTestApp({ env: { SVC_DIST_DIR: dist.path } });
    try {
      const phone = await pages.app.inject({ url: '/m/v/vr_test' });
      expect(phone.statusCode).toBe(200);
      expect(phone.headers['content-security-policy']).toBe(PAGE_CSP);
      for (const url of ['/healthz', '/api/billing/attestation-keys', '/unknown']) {
        expect((await pages.app.inject({ url })).headers['content-security-policy'], url).toBeUndefined();
      }
    } finally {
      await pages.close();
      dist.remove();
    }
  });
});
