/**
 * The OpenAPI document proven by a client nobody wrote by hand (docs/partner-api.md): types generated from
 * the /docs/json a listening service serves (openapi-typescript), compiled with
 * openapi-client.calls.ts (openapi-fetch calls of every route a partner, the loader and a wallet
 * use), then those same calls run against that service. Every answer must be one the document
 * lists for its operation, match that answer's schema, and carry every field the handler gave it
 * (a response schema drops the fields it does not name).
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DcApiRequest } from '../../src/protocol/wire.ts';
import { createApp } from '../app.ts';
import { createFakeClock } from '../clock.ts';
import { makeTempDir, makeTestDeps, PARTNERS, REPO_ROOT, type TestDeps, type TestPartner } from '../test/helpers.ts';
import { personaOf } from '../test/personas.ts';
import type { PrivateAttestationKeySet } from '../crypto/private-attestation.ts';
import { blindTokenRequest } from '../test/private-client.ts';
import { issueTestSessionToken, PARTNER_ORIGIN } from '../test/verify-flow.ts';
import { loadSandboxIssuer } from '../sandbox/wallet/sandbox-issuer.ts';
import { createDcApiCredential, createDirectPost } from '../sandbox/wallet/sandbox-wallet.ts';
import { DEFAULT_WALLET_FIXTURES } from '../wallet/trust/anchors.ts';

const CALLS_FILE = fileURLToPath(new URL('./openapi-client.calls.ts', import.meta.url));

interface Step {
  operation: string;
  status: number;
  body: unknown;
  correlationId: string | null;
  retryAfter: string | null;
}

type Journey = (clients: unknown, outside: unknown, transcript: unknown) => Promise<Record<string, unknown>>;

/** openapi-client.calls.ts as this file sees it: its types exist only in the compile below. */
interface CallsModule {
  createServiceClient(baseUrl: string, ...middleware: unknown[]): unknown;
  partnerSigning(document: unknown, partner: TestPartner, nowSeconds: () => number): unknown;
  Transcript: new () => { steps: Step[] };
  walletJourney: Journey;
  signedWalletJourney: Journey;
  dcApiJourney: Journey;
  partnerJourney: Journey;
  blindJourney: Journey;
  refusals: Journey;
}

interface Operation {
  tags?: string[];
  security?: unknown;
  requestBody?: unknown;
  responses: Record<
    string,
    { headers?: Record<string, { required?: boolean }>; content?: Record<string, { schema: object }> }
  >;
}
interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
}

let t: TestDeps & { app: FastifyInstance; baseUrl: string };
let doc: OpenApiDocument;
let calls: CallsModule;
/** What each handler gave to the serializer, by correlation id. */
const handed = new Map<string, unknown>();
const issuer = loadSandboxIssuer();
const ajv = new Ajv2020({ strict: false, allErrors: true });

beforeAll(async () => {
  // A clock inside the committed sandbox issuer's validity (the wallet journeys present its credentials).
  // With the sandbox access certificate: openid4vp:// requests are signed (docs/design.md §16), av:// stays as it is.
  const base = await makeTestDeps({
    clock: createFakeClock(Date.now()),
    env: {
      SVC_WALLET_ACCESS_CERT: join(DEFAULT_WALLET_FIXTURES, 'sandbox-access.pem'),
      SVC_WALLET_ACCESS_KEY: join(DEFAULT_WALLET_FIXTURES, 'sandbox-access.key.pem'),
    },
  });
  const app = await createApp(base.deps);
  app.addHook('preSerialization', async (request, _reply, payload) => {
    handed.set(request.id, JSON.parse(JSON.stringify(payload)));
    return payload;
  });
  const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  t = { ...base, app, baseUrl };
  doc = (await (await fetch(`${baseUrl}/docs/json`)).json()) as OpenApiDocument;
  calls = (await import(/* @vite-ignore */ CALLS_FILE)) as CallsModule;
});

afterAll(async () => {
  await t?.app.close();
  await t?.store.close();
});

/** The generated types of `document`, as openapi-typescript writes them. */
async function generateTypes(document: object): Promise<string> {
  return astToString(await openapiTS(document as Parameters<typeof openapiTS>[0]));
}

/** Compiles openapi-client.calls.ts against `types` with server/tsconfig.json's options; the diagnostics. */
function compileCalls(types: string): string[] {
  const dir = makeTempDir('svc-openapi-client-');
  try {
    const schemaFile = join(dir.path, 'schema.ts');
    writeFileSync(schemaFile, types);
    const configPath = join(REPO_ROOT, 'server', 'tsconfig.json');
    const config = ts.getParsedCommandLineOfConfigFile(
      configPath,
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
          throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
        },
      },
    )!;
    const options = { ...config.options, noEmit: true, paths: { 'svc-openapi-schema': [schemaFile] } };
    const program = ts.createProgram([CALLS_FILE], options);
    const host: ts.FormatDiagnosticsHost = {
      getCanonicalFileName: (name) => name,
      getCurrentDirectory: () => REPO_ROOT,
      getNewLine: () => '\n',
    };
    return ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.formatDiagnostic(diagnostic, host).trim());
  } finally {
    dir.remove();
  }
}

function clientsFor(): unknown {
  const now = () => Math.floor(t.clock.now() / 1000);
  return {
    partner: calls.createServiceClient(t.baseUrl, calls.partnerSigning(doc, PARTNERS.demo, now)),
    blindPartner: calls.createServiceClient(t.baseUrl, calls.partnerSigning(doc, PARTNERS.blindShop, now)),
    open: calls.createServiceClient(t.baseUrl),
    origin: PARTNER_ORIGIN,
  };
}

const persona = () => personaOf('fr-adult-m');

/** What the journeys need outside the documented surface. */
const outside = {
  privateSessionToken: () => issueTestSessionToken(t, { attestation: 'private' }),
  async blindTokenRequest(keySet: unknown): Promise<string> {
    const { tokenRequest } = await blindTokenRequest(keySet as PrivateAttestationKeySet, 1, randomBytes(32));
    return Buffer.from(tokenRequest).toString('base64url');
  },
  async completeOnPhone(requestId: string, handoff: string): Promise<void> {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/m/requests/${requestId}/complete`,
      payload: { h: handoff, persona: 'fr-adult-m', method: 'face_check', outcome: 'approved' },
    });
    expect(res.statusCode, res.body).toBe(200);
  },
  async presentWithWallet(walletLink: string): Promise<URLSearchParams> {
    const { body } = await createDirectPost({ link: walletLink, issuer, persona: persona(), now: t.clock.now() });
    return new URLSearchParams(body);
  },
  async presentSigned(walletLink: string, requestObject: string): Promise<URLSearchParams> {
    const { body } = await createDirectPost({
      link: walletLink,
      fetchRequestObject: async () => requestObject,
      issuer,
      persona: persona(),
      now: t.clock.now(),
      credential: 'pid',
    });
    return new URLSearchParams(body);
  },
  presentWithDcApi(dcRequest: DcApiRequest, origin: string) {
    return createDcApiCredential({
      dcRequest,
      origin,
      issuer,
      persona: persona(),
      now: t.clock.now(),
      credential: 'pid',
    });
  },
};

/** `GET /api/w/verify-status/{requestId}` → the document's operation. */
function operationOf(step: Step): Operation {
  const [method, path] = step.operation.split(' ') as [string, string];
  const operation = doc.paths[path]?.[method.toLowerCase()];
  if (!operation) throw new Error(`${step.operation} is not in the document`);
  return operation;
}

/** Each answer is one its operation documents, matches that answer's schema, and lost no field on the wire. */
function expectDocumented(steps: readonly Step[]): void {
  for (const step of steps) {
    const label = `${step.operation} → ${step.status} ${JSON.stringify(step.body)}`;
    const response = operationOf(step).responses[String(step.status)];
    expect(response, `${label}: status not documented`).toBeDefined();
    // A request object is a JWS, not JSON: typed as a string of its own media type, never serialized.
    const jws = response!.content?.['application/oauth-authz-req+jwt']?.schema;
    if (jws) {
      expect(ajv.compile(jws)(step.body), label).toBe(true);
      continue;
    }
    const schema = response!.content?.['application/json']?.schema;
    expect(schema, `${label}: no JSON schema`).toBeDefined();
    const validate = ajv.compile(schema!);
    expect(validate(step.body), `${label}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    const given = step.correlationId === null ? undefined : handed.get(step.correlationId);
    if (step.status < 300) expect(given, `${label}: the handler's answer was not seen`).toBeDefined();
    if (given !== undefined) expect(step.body, `${label}: a field did not reach the wire`).toEqual(given);
    if (response!.headers?.['Retry-After']?.required) expect(step.retryAfter, label).toMatch(/^[1-9]\d*$/);
  }
}

/** The operations and statuses of a transcript, in order. */
const statusesOf = (steps: readonly Step[]) => steps.map((step) => `${step.operation} ${step.status}`);

const called: Step[] = [];

async function run(journey: Journey): Promise<{ steps: Step[]; result: Record<string, unknown> }> {
  const transcript = new calls.Transcript();
  const result = await journey(clientsFor(), outside, transcript);
  called.push(...transcript.steps);
  return { steps: transcript.steps, result };
}

describe('the OpenAPI document, proven by a generated client', () => {
  it('is valid OpenAPI 3.1 as served over HTTP', async () => {
    expect(await new Validator().validate(doc as unknown as Record<string, unknown>)).toEqual({ valid: true });
  });

  it('generates types that every call of openapi-client.calls.ts compiles against, and that refuse the calls it marks', async () => {
    expect(compileCalls(await generateTypes(doc))).toEqual([]);
  }, 60_000);

  it('fails that compile when the billing session loses its request body: a client could not send one', async () => {
    const broken = structuredClone(doc);
    delete broken.paths['/api/billing/session']!.post!.requestBody;
    const diagnostics = compileCalls(await generateTypes(broken));
    expect(diagnostics).toContainEqual(
      expect.stringMatching(
        /^server\/routes\/openapi-client\.calls\.ts\(\d+,\d+\): error TS2322: Type 'BillingSessionBody'/,
      ),
    );
    expect(diagnostics).toContainEqual(expect.stringContaining("Unused '@ts-expect-error' directive"));
  }, 60_000);

  it('runs the loader and the EUDI wallet (direct_post, long poll), then exchange and introspection, through it', async () => {
    const { steps, result } = await run(calls.walletJourney);
    expect(statusesOf(steps)).toEqual([
      'POST /api/w/verify-request 201',
      'GET /api/w/verify-status/{requestId} 200',
      'POST /api/m/requests/{requestId}/open 200',
      'POST /oid4vp/response/{requestId} 200',
      'GET /api/w/verify-status/{requestId} 200',
      'POST /v1/exchange 200',
      'POST /v1/introspect 200',
      'POST /v1/introspect 200',
    ]);
    expectDocumented(steps);
    expect(result.created).toMatchObject({
      request_id: expect.stringMatching(/^vr_/),
      poll_token: expect.stringMatching(/^pt_/),
      sandbox: true,
      qr: { size: expect.any(Number), bits: expect.any(String) },
      wallet_link: expect.stringMatching(/^av:\/\//),
      dc_request: { protocol: 'org-iso-mdoc' },
    });
    expect(result.first).toMatchObject({ status: 'pending' });
    expect(result.opened).toMatchObject({ status: 'in_progress' });
    expect((result.opened as { methods: Array<{ id: string }> }).methods[0]).toMatchObject({ id: 'eudi_wallet' });
    // design.md §19: the way back to the phone page's done view
    expect(result.answered).toEqual({
      redirect_uri: expect.stringMatching(/\/m\/v\/vr_[\w-]+\/done#response_code=[\w-]{43}$/),
    });
    expect(result.done).toMatchObject({ status: 'completed', result: { grant_code: expect.stringMatching(/^g_/) } });
    expect(result.exchanged).toMatchObject({ token_type: 'Bearer', scopes: ['isAdult'], age_over_18: true });
    expect(result.active).toMatchObject({ active: true, attributes: { verification_method: 'eudi_wallet' } });
    expect(result.inactive).toEqual({ active: false });
  });

  it('runs a signed wallet request (request object, direct_post.jwt) through it', async () => {
    const { steps, result } = await run(calls.signedWalletJourney);
    expect(statusesOf(steps)).toEqual([
      'POST /api/w/verify-request 201',
      'GET /oid4vp/request/{requestId} 200',
      'POST /oid4vp/request/{requestId} 200',
      'POST /oid4vp/response/{requestId} 200',
      'GET /api/w/verify-status/{requestId} 200',
    ]);
    expectDocumented(steps);
    expect((result.created as { wallet_link: string }).wallet_link).toMatch(/^openid4vp:\/\/\?client_id=x509_hash%3A/);
    expect(result.requestObject).toMatch(/^ey[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(result.done).toMatchObject({ status: 'completed', result: { grant_code: expect.stringMatching(/^g_/) } });
  });

  it('runs the loader answered through the Digital Credentials API (wallet-response, openid4vp-v1-unsigned) through it', async () => {
    const { steps, result } = await run(calls.dcApiJourney);
    expect(statusesOf(steps)).toEqual([
      'POST /api/w/verify-request 201',
      'POST /api/w/wallet-response/{requestId} 200',
      'GET /api/w/verify-status/{requestId} 200',
    ]);
    expectDocumented(steps);
    // this service holds the sandbox access certificate (docs/design.md §16): the signed request comes first
    expect((result.created as { dc_requests: { protocol: string }[] }).dc_requests.map((r) => r.protocol)).toEqual([
      'openid4vp-v1-signed',
      'org-iso-mdoc',
      'openid4vp-v1-unsigned',
    ]);
    expect(result.done).toMatchObject({ status: 'completed', result: { grant_code: expect.stringMatching(/^g_/) } });
  });

  it('runs the signed partner variants (create, status, its long poll) through it, the signature added by a middleware', async () => {
    const { steps, result } = await run(calls.partnerJourney);
    expect(statusesOf(steps)).toEqual([
      'POST /api/partner/verify-request 201',
      'GET /api/partner/verify-status/{requestId} 200',
      'POST /api/m/requests/{requestId}/open 200',
      'GET /api/partner/verify-status/{requestId} 200',
      'POST /v1/exchange 200',
      'POST /v1/introspect 200',
      'POST /v1/introspect 200',
    ]);
    expectDocumented(steps);
    expect(Object.keys(result.created as object).sort()).toEqual(['deep_link', 'expires_at', 'request_id']);
    expect(result.first).toMatchObject({ status: 'pending' });
    expect(result.done).toMatchObject({ status: 'completed', result: { grant_code: expect.stringMatching(/^g_/) } });
    expect(result.exchanged).toMatchObject({ attributes: { age_over_18: true, is_french: true } });
  });

  it('runs the ADULT_BLIND rail (billing session, the loader with its token, the attestation and its keys) through it', async () => {
    const { steps, result } = await run(calls.blindJourney);
    expect(statusesOf(steps)).toEqual([
      'POST /api/billing/session 201',
      'POST /api/w/verify-request 201',
      'GET /api/w/verify-status/{requestId} 200',
      'GET /api/billing/attestation-keys 200',
      'POST /api/w/verify-request 201',
      'GET /api/w/verify-status/{requestId} 200',
      'GET /api/billing/private-attestation-keys 200',
      'POST /api/w/private-attestation/{requestId} 200',
    ]);
    expectDocumented(steps);
    expect(result.session).toEqual({ token: expect.any(String), expires_in: 300 });
    expect(result.privateCreated).toMatchObject({ attestation: 'private' });
    expect(result.privateDone).toMatchObject({ result: { private_attestation: { scope_mask: 1 } } });
    expect(result.signed).toEqual({ token_response: expect.stringMatching(/^[A-Za-z0-9_-]{342}$/) });
    expect(result.done).toMatchObject({ status: 'completed', result: { attestation: expect.any(String) } });
    expect((result.keys as { keys: unknown[] }).keys.length).toBeGreaterThan(0);
  });

  it('reads each refusal as the document types it: 404, 400, 401, 403, the wallet’s invalid_request, 429 with Retry-After', async () => {
    const { steps, result } = await run(calls.refusals);
    expect(statusesOf(steps)).toEqual([
      'POST /api/w/verify-request 201',
      'GET /api/w/verify-status/{requestId} 404',
      'GET /api/partner/verify-status/{requestId} 400',
      'GET /api/partner/verify-status/{requestId} 404',
      'GET /api/partner/verify-status/{requestId} 401',
      'POST /api/billing/session 403',
      'POST /api/w/wallet-response/{requestId} 400',
      'GET /api/w/verify-status/{requestId} 429',
    ]);
    expectDocumented(steps);
    expect(result).toEqual({
      wrongToken: true,
      badWait: true,
      notOwn: true,
      unsigned: true,
      otherOrigin: true,
      junkCredential: true,
      limited: true,
    });
    expect(steps.at(-1)!.retryAfter).toBe('60');
  });

  it('has called, with its success status, every operation a partner, the loader or a wallet uses', () => {
    const succeeded = new Set(called.filter((step) => step.status < 300).map((step) => step.operation));
    const used = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, operation]) =>
          operation.tags?.some((tag) => ['partner', 'billing', 'widget', 'wallet'].includes(tag)),
        )
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(used).toHaveLength(14);
    expect(used.filter((operation) => !succeeded.has(operation))).toEqual([]);
  });
});
