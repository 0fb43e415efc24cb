/**
 * Non-retention, proof path by proof path (design.md §22, docs/privacy.md "What is kept after a
 * decision"): on one service per store (SQLite in a data folder, Redis on a real redis-server
 * with its append-only file), each way a fact is proven completes a verification, the partner
 * reads its result, and then everything the service keeps is searched for every piece of every
 * proof: the files (the WAL included) or every Redis key and the AOF, the sealed values opened
 * with the service's own keys, every log line (trace level), the metrics scrape and every
 * exported span. The scan itself is shown to find a piece planted in each of those places.
 */
import { DeviceRequest } from '@owf/mdoc';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-node';
import { trace } from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';
import Database from 'better-sqlite3';
import Redis from 'ioredis';
import type { AddressInfo } from 'node:net';
import { Gauge, type Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DcApiRequest } from '../src/protocol/wire.ts';
import { createFakeClock } from './clock.ts';
import { unseal } from './crypto/seal.ts';
import { SEAL_PURPOSE } from './domain/exchange.ts';
import { openResult } from './crypto/result-box.ts';
import { openWalletMaterial } from './domain/wallet-offer.ts';
import { createRelyingParty } from './providers/relying-party.ts';
import { signInAtExampleProvider } from './sandbox/example-idp/sign-in.ts';
import type { ExampleProvider } from './sandbox/example-idp/provider.ts';
import { loadSandboxIssuer } from './sandbox/wallet/sandbox-issuer.ts';
import { issuePidSdJwt, personaPidClaims, presentPidSdJwt } from './sandbox/wallet/sandbox-sd-jwt.ts';
import { SANDBOX_STATUS_LIST_PATH } from './sandbox/wallet/sandbox-status-list.ts';
import {
  askedByDeviceRequest,
  chooseCredential,
  createDeviceResponse,
  createDirectPost,
} from './sandbox/wallet/sandbox-wallet.ts';
import { openRedisStore } from './store/redis.ts';
import { openSqliteStore } from './store/sqlite.ts';
import type { Store } from './store/store.ts';
import { listenForMetrics, type MetricsListener } from './telemetry/metrics-listener.ts';
import { createTelemetry, TRACER_NAME } from './telemetry/telemetry.ts';
import { registerTracing } from './telemetry/tracing.ts';
import { runBlindFlow } from './test/blind-flow.ts';
import { makeTempDir, makeTestApp, makeTestDeps, PARTNERS, signedInject, type TestApp } from './test/helpers.ts';
import { personaOf } from './test/personas.ts';
import { issuePrivateToken } from './test/private-client.ts';
import { clientsOf, recordingFetch, REDIRECT_URI, startProvider } from './test/providers.ts';
import { startRedisServer, type RedisServer } from './test/redis-server.ts';
import {
  binaryPiece,
  cborByteStrings,
  findPieces,
  patternPiece,
  redisHaystacks,
  sqliteHaystacks,
  textHaystack,
  textPiece,
  type Haystack,
  type Piece,
} from './test/retention-scan.ts';
import { completeOnPhone, PARTNER_ORIGIN, pollStatus, startBlindFlow, startStandardFlow } from './test/verify-flow.ts';
import { sealDcResponse } from './wallet/answer/hpke.ts';
import { decodeBase64Url } from './wallet/keys.ts';
import { createDcapiSessionTranscript } from './wallet/formats/session-transcript.ts';
import { sealOid4vpDcResponse } from './wallet/answer/jwe.ts';

const issuer = loadSandboxIssuer();
const exporter = new InMemorySpanExporter();
const tracing = registerTracing(exporter, { batch: false });
afterAll(() => tracing.shutdown());

/** Each way a fact is proven (docs/compliance.md names them). */
const PATHS = [
  'sandbox persona',
  'identity provider (ID token)',
  'EU AV mdoc',
  'PID mdoc',
  'mDL mdoc',
  'SD-JWT VC PID via link',
  'SD-JWT VC PID via the Digital Credentials API',
  'org-iso-mdoc',
  'ADULT_BLIND JWS',
  'ADULT_BLIND private',
] as const;
type ProofPath = (typeof PATHS)[number];

/** Status-list entries no other number in the store is likely to sit beside `idx` (valid on the sandbox list). */
const STATUS_INDEX = { mdoc: 613, sdJwtLink: 717, sdJwtDc: 829 } as const;

/** The birth date, in the spellings a careless service would write it. */
function birthDatePieces(personaId: string): Piece[] {
  const date = personaOf(personaId).birth_date!;
  const [y, m, d] = date.split('-');
  return [textPiece(`${personaId} birth date`, date, [`${y}${m}${d}`, `${d}/${m}/${y}`, `${y}/${m}/${d}`])];
}

/** A nationality value: alpha-3 (the persona, the grant) and alpha-2 (credentials), as JSON, CBOR or a log field. */
function nationalityPiece(personaId: string): Piece {
  const alpha3 = personaOf(personaId).nationality;
  const alpha2 = alpha3.slice(0, 2);
  return patternPiece(
    `${personaId} nationality ${alpha3}`,
    [
      new RegExp(`"(${alpha3}|${alpha2})"`),
      new RegExp(`nationalit\\w*\\W{1,6}(${alpha3}|${alpha2})\\b`),
      new RegExp(`country\\W{1,6}(${alpha3}|${alpha2})\\b`),
    ],
    // CBOR: a PID's array of one text(2) "FR", an mDL's elementValue "FR"
    [
      Buffer.from([0x81, 0x62, ...Buffer.from(alpha2)]),
      Buffer.from([0x6c, ...Buffer.from('elementValue'), 0x62, ...Buffer.from(alpha2)]),
    ],
  );
}

/** The sandbox persona chosen on the phone: the sandbox's stand-in for who the person is. */
function personaIdPiece(personaId: string): Piece {
  return patternPiece(`persona ${personaId}`, [new RegExp(`\\b${personaId}\\b`)]);
}

function statusIndexPiece(name: string, index: number): Piece {
  const cbor = Buffer.from([0x63, ...Buffer.from('idx'), 0x19, index >> 8, index & 0xff]);
  return patternPiece(
    `${name} status-list index ${index}`,
    [new RegExp(`\\b(idx|index|status_?[iI]ndex)\\W{1,4}${index}\\b`)],
    [cbor],
  );
}

/** A DeviceResponse and everything long inside it. */
function deviceResponsePieces(name: string, bytes: Uint8Array): Piece[] {
  return [
    binaryPiece(`${name} DeviceResponse`, bytes),
    ...cborByteStrings(bytes).map((part, i) => binaryPiece(`${name} DeviceResponse part ${i}`, part)),
  ];
}

/** An SD-JWT VC presentation: the whole, the issuer JWT, each disclosure and its salt, the KB-JWT. */
function sdJwtPieces(name: string, presentation: string): Piece[] {
  const parts = presentation.split('~');
  const kbJwt = parts.pop()!;
  const [issuerJwt, ...disclosures] = parts;
  const pieces = [
    textPiece(`${name} presentation`, presentation),
    textPiece(`${name} issuer-signed JWT`, issuerJwt!),
    textPiece(`${name} KB-JWT`, kbJwt),
    textPiece(`${name} KB-JWT signature`, kbJwt.split('.')[2]!),
  ];
  for (const disclosure of disclosures.filter(Boolean)) {
    const [salt, claim] = JSON.parse(Buffer.from(disclosure, 'base64url').toString('utf8')) as [string, string];
    pieces.push(textPiece(`${name} disclosure ${claim}`, disclosure), textPiece(`${name} salt of ${claim}`, salt));
  }
  return pieces;
}

interface Service {
  t: TestApp;
  store: 'sqlite' | 'redis';
  logLines: string[];
  scrape(): Promise<string>;
  /** what the service keeps, read fresh: files or keys, opened sealed values, logs, metrics, spans */
  kept(): Promise<Haystack[]>;
  /** poll tokens and grant codes the test holds, to open what the service sealed to them */
  pollTokens: Map<string, string>;
  grants: { code: string; partnerId: string; idempotencyKey: string }[];
  /** the token endpoint's answers as the relying party received them */
  tokenAnswers(): string[];
  /** the metrics registry /metrics serves */
  registry: Registry;
  close(): Promise<void>;
}

async function startService(kind: 'sqlite' | 'redis'): Promise<Service> {
  const dir = makeTempDir('svc-retention-');
  let redis: RedisServer | null = null;
  let store: Store;
  if (kind === 'redis') {
    redis = await startRedisServer({ appendOnly: true });
    store = await openRedisStore({ url: redis.url, prefix: 'svc:' });
  } else {
    store = openSqliteStore(`${dir.path}/svc.sqlite`);
  }
  const clock = createFakeClock(Date.now());
  const telemetry = await createTelemetry({
    metrics: { processMetrics: false, longPollWaiters: () => 0 },
    tracing: true,
  });
  const base = await makeTestDeps({ clock, store });
  const wire = recordingFetch();
  const deps = { ...base.deps, telemetry, relyingParty: createRelyingParty({ fetch: wire.fetch, clock }) };
  const logLines: string[] = [];
  const t = await makeTestApp({ deps, log: { lines: logLines, level: 'trace' } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const metrics: MetricsListener = await listenForMetrics(telemetry.metrics!.registry, { port: 0, host: '127.0.0.1' });
  const scrape = async () => (await fetch(metrics.url)).text();
  const client = redis ? new Redis(redis.url) : null;
  const pollTokens = new Map<string, string>();
  const grants: Service['grants'] = [];

  /** The sealed values, opened as the service opens them (its keyring, the wallet sealing secret, the tokens). */
  async function opened(): Promise<Haystack[]> {
    const now = clock.now();
    const out: Haystack[] = [];
    const add = (where: string, value: unknown) => out.push(textHaystack(`opened ${where}`, JSON.stringify(value)));
    add('partners', await t.store.listPartners());
    add('providers', await t.store.listProviders());
    add('secrets', await t.store.listSecrets());
    for (const purpose of ['attestation', 'session', 'private-attestation'] as const)
      add(`${purpose} keys`, await t.store.listKeys(purpose));
    const requestIds =
      kind === 'sqlite'
        ? (sqliteColumn('SELECT id FROM requests') as string[])
        : (await client!.keys('svc:request:*')).map((key) => key.slice('svc:request:'.length));
    for (const id of requestIds) {
      const record = await t.store.getRequest(id, now);
      if (!record) continue;
      add(`request ${id}`, record);
      if (record.wallet) add(`request ${id} wallet material`, openWalletMaterial(t.deps, id, record.wallet));
      const pollToken = pollTokens.get(id);
      if (record.sealedResult && pollToken)
        add(`request ${id} result`, openResult(record.resultKeySealed, pollToken, record.sealedResult));
    }
    for (const grant of grants) {
      const replay = await t.store.getExchangeReplay(grant.partnerId, grant.idempotencyKey, now);
      if (replay) add(`exchange replay`, unseal(grant.code, SEAL_PURPOSE, replay.sealedResponse));
    }
    return out;
  }

  function sqliteColumn(sql: string): unknown[] {
    const db = new Database(`${dir.path}/svc.sqlite`, { readonly: true });
    try {
      return db.prepare(sql).pluck().all();
    } finally {
      db.close();
    }
  }

  /** Login states, opened by taking them through the sealed store (last: taking deletes them). */
  async function openedLoginStates(): Promise<Haystack[]> {
    const digests =
      kind === 'sqlite'
        ? (sqliteColumn('SELECT digest FROM login_states') as string[])
        : (await client!.keys('svc:login:*')).map((key) => key.slice('svc:login:'.length));
    const out: Haystack[] = [];
    for (const digest of digests)
      out.push(textHaystack(`opened login state`, JSON.stringify(await t.store.takeLoginState(digest, clock.now()))));
    return out;
  }

  return {
    t,
    store: kind,
    logLines,
    scrape,
    pollTokens,
    grants,
    registry: telemetry.metrics!.registry,
    tokenAnswers: () => wire.calls.filter((call) => call.url.pathname.endsWith('/token')).map((call) => call.body),
    async kept() {
      const raw = kind === 'sqlite' ? sqliteHaystacks(dir.path) : await redisHaystacks(client!, redis!.dir);
      return [
        ...raw,
        ...(await opened()),
        ...(await openedLoginStates()),
        textHaystack('log lines', logLines.join('\n')),
        textHaystack('/metrics', await scrape()),
        ...exporter.getFinishedSpans().map((span, i) =>
          textHaystack(
            `span ${i} ${span.name}`,
            JSON.stringify({
              name: span.name,
              attributes: span.attributes,
              events: span.events,
              status: span.status,
              links: span.links,
              resource: span.resource.attributes,
            }),
          ),
        ),
      ];
    },
    async close() {
      await metrics.close();
      await t.close();
      client?.disconnect();
      await redis?.remove();
      dir.remove();
    },
  };
}

interface Proven {
  /** the pieces of the proof */
  pieces: Piece[];
  /** what reached the service (the wallet's post, the provider's token answer): every piece must be in it */
  sent: Haystack[];
}

function form(app: FastifyInstance, responseUri: string, body: string) {
  return app.inject({
    method: 'POST',
    url: new URL(responseUri).pathname,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: body,
  });
}

function dcPost(app: FastifyInstance, requestId: string, pollToken: string, credential: unknown) {
  return app.inject({
    method: 'POST',
    url: `/api/w/wallet-response/${requestId}?pt=${pollToken}`,
    headers: { 'content-type': 'text/plain;charset=UTF-8', origin: PARTNER_ORIGIN },
    payload: JSON.stringify(credential),
  });
}

/** The partner's side of a STANDARD decision: the status, the exchange (with an Idempotency-Key), the introspection. */
async function partnerReads(s: Service, flow: { requestId: string; pollToken: string }): Promise<void> {
  s.pollTokens.set(flow.requestId, flow.pollToken);
  const status = await pollStatus(s.t, flow);
  expect(status.status, JSON.stringify(status)).toBe('completed');
  const code = (status.result as { grant_code: string }).grant_code;
  const idempotencyKey = `idem-${flow.requestId}`;
  const exchanged = await signedInject(s.t, {
    url: '/v1/exchange',
    body: { grant_code: code },
    headers: { 'Idempotency-Key': idempotencyKey },
  });
  expect(exchanged.statusCode, exchanged.body).toBe(200);
  s.grants.push({ code, partnerId: PARTNERS.demo.id, idempotencyKey });
  const introspected = await signedInject(s.t, {
    url: '/v1/introspect',
    body: { pass_token: exchanged.json().pass_token },
  });
  expect(introspected.json()).toMatchObject({ active: true });
}

async function prove(s: Service, path: ProofPath): Promise<Proven> {
  const { t } = s;
  const now = t.clock.now();
  const { port } = t.app.server.address() as AddressInfo;
  const statusList = `http://127.0.0.1:${port}${SANDBOX_STATUS_LIST_PATH}`;
  const wallet = (scopes: string[]) => startStandardFlow(t, { scopes, client_proof_mode: true });

  switch (path) {
    case 'sandbox persona': {
      const flow = await startStandardFlow(t, { scopes: ['isAdult', 'isFrench', 'isEU'] });
      expect((await completeOnPhone(t, flow, { persona: 'fr-adult-f' })).statusCode).toBe(200);
      await partnerReads(s, flow);
      // The persona is the proof: its fixture is what reached the service.
      return {
        pieces: [...birthDatePieces('fr-adult-f'), nationalityPiece('fr-adult-f'), personaIdPiece('fr-adult-f')],
        sent: [textHaystack('persona fixture', JSON.stringify(personaOf('fr-adult-f')))],
      };
    }
    case 'identity provider (ID token)': {
      const flow = await startStandardFlow(t, { scopes: ['isAdult', 'isFrench'] });
      await t.app.inject({
        method: 'POST',
        url: `/api/m/requests/${flow.requestId}/open`,
        payload: { h: flow.handoff },
      });
      const started = await t.app.inject({
        method: 'POST',
        url: `/api/m/requests/${flow.requestId}/providers/idp_retention/start`,
        payload: { h: flow.handoff },
      });
      expect(started.statusCode, started.body).toBe(200);
      const cookie = String(started.headers['set-cookie']).split(';')[0]!;
      const { callbackUrl } = await signInAtExampleProvider(started.json().authorization_url, {
        decision: 'approve',
        redirectUri: REDIRECT_URI,
        persona: 'de-adult',
      });
      const back = await t.app.inject({ url: callbackUrl.pathname + callbackUrl.search, headers: { cookie } });
      expect(back.statusCode, back.body).toBeLessThan(400);
      await partnerReads(s, flow);
      const wire = s.tokenAnswers();
      expect(wire).toHaveLength(1);
      const answer = JSON.parse(wire.at(-1)!) as { id_token: string; access_token: string };
      const [, payload, signature] = answer.id_token.split('.');
      const sub = (JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as { sub: string }).sub;
      return {
        pieces: [
          textPiece('ID token', answer.id_token),
          textPiece('ID token payload', payload!),
          textPiece('ID token signature', signature!),
          textPiece('access token', answer.access_token),
          patternPiece(`sub ${sub}`, [new RegExp(`\\b${sub}\\b`)]),
          ...birthDatePieces('de-adult'),
          nationalityPiece('de-adult'),
        ],
        sent: [textHaystack('token endpoint answer', wire.at(-1)!)],
      };
    }
    case 'EU AV mdoc':
    case 'PID mdoc':
    case 'mDL mdoc': {
      const credential = ({ 'EU AV mdoc': 'av', 'PID mdoc': 'pid', 'mDL mdoc': 'mdl' } as const)[path];
      const personaId = credential === 'mdl' ? 'us-adult' : 'fr-adult-m';
      const flow = await wallet(credential === 'av' ? ['isAdult'] : ['isAdult', 'isEU']);
      const { responseUri, body } = await createDirectPost({
        link: flow.created.wallet_link!,
        issuer,
        persona: personaOf(personaId),
        now,
        credential,
        discloseAll: credential !== 'av',
        ...(credential === 'pid' ? { statusList, statusIndex: STATUS_INDEX.mdoc } : {}),
      });
      const res = await form(t.app, responseUri, body);
      expect(res.statusCode, res.body).toBe(200);
      await partnerReads(s, flow);
      const vpToken = JSON.parse(new URLSearchParams(body).get('vp_token')!) as Record<string, [string]>;
      const presentation = Object.values(vpToken)[0]![0];
      const bytes = decodeBase64Url(presentation)!;
      const pieces = [
        textPiece(`${credential} presentation`, presentation),
        ...deviceResponsePieces(credential, bytes),
      ];
      if (credential !== 'av') pieces.push(...birthDatePieces(personaId), nationalityPiece(personaId));
      if (credential === 'pid') pieces.push(statusIndexPiece('mdoc PID', STATUS_INDEX.mdoc));
      return {
        pieces,
        sent: [
          textHaystack('direct_post body', decodeURIComponent(body)),
          { where: 'DeviceResponse', bytes: Buffer.from(bytes) },
        ],
      };
    }
    case 'SD-JWT VC PID via link':
    case 'SD-JWT VC PID via the Digital Credentials API': {
      const viaLink = path === 'SD-JWT VC PID via link';
      const flow = await wallet(['isAdult', 'isFrench']);
      const holderKey = (await import('./wallet/keys.ts')).createEcJwk();
      const persona = personaOf('fr-adult-m');
      const index = viaLink ? STATUS_INDEX.sdJwtLink : STATUS_INDEX.sdJwtDc;
      const credential = await issuePidSdJwt({
        issuer,
        holderKey,
        claims: personaPidClaims(persona, now),
        now,
        status: { idx: index, uri: statusList },
      });
      let presentation: string;
      let res;
      if (viaLink) {
        const link = new URLSearchParams(flow.created.wallet_link!.split('?')[1]);
        presentation = await presentPidSdJwt({
          credential,
          holderKey,
          disclose: ['birthdate', 'nationalities'],
          nonce: link.get('nonce')!,
          audience: link.get('client_id')!,
          now,
        });
        const body = new URLSearchParams({
          vp_token: JSON.stringify({ pid_sd: [presentation] }),
          state: link.get('state')!,
        });
        res = await form(t.app, link.get('response_uri')!, body.toString());
      } else {
        const dcRequest = flow.created.dc_requests!.find((r) => r.protocol === 'openid4vp-v1-unsigned')! as Extract<
          DcApiRequest,
          { protocol: 'openid4vp-v1-unsigned' }
        >;
        presentation = await presentPidSdJwt({
          credential,
          holderKey,
          disclose: ['birthdate', 'nationalities'],
          nonce: dcRequest.data.nonce,
          audience: `origin:${PARTNER_ORIGIN}`,
          now,
        });
        const response = await sealOid4vpDcResponse(dcRequest.data.client_metadata.jwks.keys[0]!, {
          vp_token: { pid_sd: [presentation] },
        });
        res = await dcPost(t.app, flow.requestId, flow.pollToken, { protocol: dcRequest.protocol, data: { response } });
      }
      expect(res.statusCode, res.body).toBe(200);
      await partnerReads(s, flow);
      const name = viaLink ? 'SD-JWT (link)' : 'SD-JWT (DC API)';
      return {
        pieces: [
          ...sdJwtPieces(name, presentation),
          ...birthDatePieces('fr-adult-m'),
          nationalityPiece('fr-adult-m'),
          statusIndexPiece(name, index),
        ],
        sent: [
          textHaystack('presentation', presentation),
          textHaystack(
            'decoded',
            presentation
              .split('~')
              .map((p) => Buffer.from(p.split('.')[1] ?? p, 'base64url').toString('utf8'))
              .join('\n'),
          ),
        ],
      };
    }
    case 'org-iso-mdoc': {
      const flow = await wallet(['isAdult', 'isFrench']);
      const dcRequest = flow.created.dc_requests!.find((r) => r.protocol === 'org-iso-mdoc')! as Extract<
        DcApiRequest,
        { protocol: 'org-iso-mdoc' }
      >;
      const { deviceRequest, encryptionInfo } = dcRequest.data;
      expect(DeviceRequest.decode(decodeBase64Url(deviceRequest)!).docRequests.length).toBeGreaterThan(0);
      const asked = chooseCredential(askedByDeviceRequest(deviceRequest), 'pid');
      const persona = personaOf('de-adult');
      const deviceResponse = await createDeviceResponse({
        issuer,
        persona,
        now,
        asked,
        discloseAll: true,
        sessionTranscript: createDcapiSessionTranscript(encryptionInfo, PARTNER_ORIGIN),
      });
      const response = await sealDcResponse(encryptionInfo, PARTNER_ORIGIN, deviceResponse);
      const res = await dcPost(t.app, flow.requestId, flow.pollToken, { protocol: 'org-iso-mdoc', data: { response } });
      expect(res.statusCode, res.body).toBe(200);
      await partnerReads(s, flow);
      return {
        pieces: [
          ...deviceResponsePieces('org-iso-mdoc', deviceResponse),
          textPiece('org-iso-mdoc sealed response', response),
          ...birthDatePieces('de-adult'),
          nationalityPiece('de-adult'),
        ],
        sent: [{ where: 'DeviceResponse', bytes: Buffer.from(deviceResponse) }, textHaystack('response', response)],
      };
    }
    case 'ADULT_BLIND JWS': {
      const flow = await runBlindFlow(t, { partner: PARTNERS.blindShop, origin: PARTNER_ORIGIN, persona: 'us-adult' });
      expect(flow.attestation.split('.')).toHaveLength(3);
      return {
        pieces: [...birthDatePieces('us-adult'), nationalityPiece('us-adult'), personaIdPiece('us-adult')],
        sent: [textHaystack('persona fixture', JSON.stringify(personaOf('us-adult')))],
      };
    }
    case 'ADULT_BLIND private': {
      const flow = await startBlindFlow(t, { attestation: 'private' });
      s.pollTokens.set(flow.requestId, flow.pollToken);
      expect((await completeOnPhone(t, flow, { persona: 'fr-adult-m' })).statusCode).toBe(200);
      const issued = await issuePrivateToken(t, flow);
      const blindedMessage = issued.tokenRequest.subarray(3);
      expect(blindedMessage).toHaveLength(256);
      return {
        pieces: [
          binaryPiece('TokenRequest', issued.tokenRequest),
          binaryPiece('blinded message', blindedMessage),
          binaryPiece('redemption context', issued.redemptionContext),
          textPiece('private token', issued.attestation.split('.')[0]!),
          ...birthDatePieces('fr-adult-m'),
          nationalityPiece('fr-adult-m'),
        ],
        sent: [
          { where: 'token request', bytes: Buffer.from(issued.tokenRequest) },
          textHaystack('token', issued.attestation),
          { where: 'context', bytes: Buffer.from(issued.redemptionContext) },
          textHaystack('persona fixture', JSON.stringify(personaOf('fr-adult-m'))),
        ],
      };
    }
  }
}

describe.each(['sqlite', 'redis'] as const)('after every decision on the %s store', (kind) => {
  let s: Service;
  let provider: ExampleProvider;
  const proven = new Map<ProofPath, Proven>();
  let kept: Haystack[];

  beforeAll(async () => {
    exporter.reset();
    provider = await startProvider();
    s = await startService(kind);
    const client = clientsOf(provider.issuer).client_secret_basic;
    await s.t.store.putProvider({
      id: 'idp_retention',
      issuer: client.issuer,
      clientId: client.clientId,
      clientAuth: client.clientAuth,
      credential: client.credential,
      name: 'Retention IdP',
      method: 'face_check',
      proves: ['isAdult', 'isFrench', 'isEU'],
      enabled: true,
      createdAt: s.t.clock.now(),
    });
    for (const path of PATHS) proven.set(path, await prove(s, path));
    kept = await s.kept();
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    await provider?.close();
  });

  it.each(PATHS)('keeps no piece of a %s proof in the store, logs, metrics or traces', (path) => {
    const { pieces, sent } = proven.get(path)!;
    expect(pieces.length).toBeGreaterThan(0);
    // Every piece searched for did reach the service: the scan looks for real bytes.
    const missing = pieces.filter((piece) => findPieces(sent, [piece]).length === 0).map((p) => p.name);
    expect(missing).toEqual([]);
    expect(findPieces(kept, pieces)).toEqual([]);
  });

  it('finds a proof piece planted in a log line, a store row, a sealed value, the metrics or a span', async () => {
    const piece = (path: ProofPath, name: RegExp) => proven.get(path)!.pieces.find((p) => name.test(p.name))!;
    const kbJwt = piece('SD-JWT VC PID via link', /KB-JWT$/);
    const deviceResponse = piece('PID mdoc', /DeviceResponse$/);
    const idToken = piece('identity provider (ID token)', /^ID token$/);
    const birthDate = piece('ADULT_BLIND JWS', /birth date/);
    const blinded = piece('ADULT_BLIND private', /^blinded message$/);
    const planted = [kbJwt, deviceResponse, idToken, birthDate, blinded];
    expect(findPieces(await s.kept(), planted)).toEqual([]);

    const text = (p: Piece) => p.needles.find((needle) => /^[\x20-\x7e]+$/.test(needle.toString('latin1')))!.toString();
    s.t.app.log.info(`planted ${text(kbJwt)}`);
    const now = s.t.clock.now();
    await s.t.store.putPartner({
      ...(await s.t.store.getPartner(PARTNERS.demo.id))!,
      id: 'pk_test_planted',
      name: text(deviceResponse),
    });
    await s.t.store.putLoginState(
      {
        digest: 'planted-digest',
        requestId: 'vr_planted',
        providerId: 'idp_retention',
        codeVerifier: text(idToken),
        nonce: 'planted-nonce',
        browserDigest: 'planted-browser',
        expiresAt: now + 60_000,
      },
      now,
    );
    new Gauge({ name: 'planted', help: `planted ${text(birthDate)}`, registers: [s.registry] }).set(1);
    trace
      .getTracer(TRACER_NAME)
      .startSpan('planted', { attributes: { 'http.route': text(blinded) } })
      .end();

    const found = findPieces(await s.kept(), planted);
    const where = (p: Piece) =>
      found.filter((line) => line.startsWith(`"${p.name}" in `)).map((l) => l.split(' in ')[1]);
    expect(where(kbJwt)).toEqual(['log lines']);
    expect(where(deviceResponse)).toEqual(
      expect.arrayContaining([
        kind === 'sqlite' ? 'table partners' : 'redis key svc:partner:pk_test_planted',
        'opened partners',
      ]),
    );
    // sealed at rest: only the service's own keys find it
    expect(where(idToken)).toEqual(['opened login state']);
    expect(where(birthDate)).toEqual(['/metrics']);
    expect(where(blinded)).toEqual([expect.stringMatching(/^span \d+ planted$/)]);
  });
});
