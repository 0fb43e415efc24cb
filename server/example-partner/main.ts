/**
 * Runs the example partner on PARTNER_HOST:PARTNER_PORT (127.0.0.1:8788), talking to the service
 * at SVC_WIDGET_URL, else SVC_PUBLIC_URL, else http://localhost:SVC_PORT (8787); SVC_API_URL
 * when the partner API lives elsewhere. STANDARD credentials: PARTNER_ID (pk_test_demo) with its
 * secret from SVC_FIXTURES (fixtures/partners.json), or PARTNER_SECRET. The ADULT_BLIND pages use
 * PARTNER_BLIND_ID (pk_test_blind_shop) and its blind_app_id from the same file, and are not
 * served when that file has no such partner; the private pages (/private) its first adult_blind
 * partner with `"attestation": "private"` (pk_test_blind_private). PARTNER_COOKIE_SECRET (≥ 32 characters) signs the
 * visitors' session cookies; without it a random one is made at each start.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createPartnerApp } from './app.ts';
import { MIN_COOKIE_SECRET_LENGTH } from './session.ts';

function fail(message: string): never {
  console.error(`example-partner: ${message}`);
  process.exit(1);
}

function readPort(raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) fail(`PARTNER_PORT must be a port number, got "${raw}"`);
  return port;
}

interface FixturePartner {
  id: string;
  secret: string;
  blind_app_id?: string;
  attestation?: string;
}

const fixturesPath = resolve(process.env.SVC_FIXTURES || 'fixtures/partners.json');
function readFixtures(): FixturePartner[] {
  try {
    return JSON.parse(readFileSync(fixturesPath, 'utf8')) as FixturePartner[];
  } catch {
    return [];
  }
}

function readSecret(partnerId: string): string {
  if (process.env.PARTNER_SECRET) return process.env.PARTNER_SECRET;
  const partner = readFixtures().find((p) => p.id === partnerId);
  if (!partner) fail(`partner ${partnerId} is not in ${fixturesPath}; set PARTNER_SECRET or PARTNER_ID`);
  return partner.secret;
}

const blindId = process.env.PARTNER_BLIND_ID || 'pk_test_blind_shop';
const blindPartner = readFixtures().find((p) => p.id === blindId && p.blind_app_id);
const privatePartner = readFixtures().find((p) => p.attestation === 'private' && p.blind_app_id);

const cookieSecret = process.env.PARTNER_COOKIE_SECRET || undefined;
if (cookieSecret !== undefined && Buffer.byteLength(cookieSecret) < MIN_COOKIE_SECRET_LENGTH) {
  fail(`PARTNER_COOKIE_SECRET must be at least ${MIN_COOKIE_SECRET_LENGTH} characters (e.g. openssl rand -base64 32)`);
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const logLevel = process.env.SVC_LOG_LEVEL || (process.env.NODE_ENV === 'test' ? 'warn' : 'info');
if (!LOG_LEVELS.includes(logLevel)) fail(`SVC_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);

const port = readPort(process.env.PARTNER_PORT, 8788);
const serviceUrl =
  process.env.SVC_WIDGET_URL || process.env.SVC_PUBLIC_URL || `http://localhost:${process.env.SVC_PORT || 8787}`;
const partnerId = process.env.PARTNER_ID || 'pk_test_demo';
const app = await createPartnerApp({
  partnerPort: port,
  serviceUrl,
  ...(process.env.SVC_API_URL ? { apiUrl: process.env.SVC_API_URL } : {}),
  partner: { id: partnerId, secret: readSecret(partnerId) },
  ...(cookieSecret ? { cookieSecret } : {}),
  ...(blindPartner
    ? { blind: { partner: { id: blindPartner.id, secret: blindPartner.secret }, appId: blindPartner.blind_app_id! } }
    : {}),
  ...(privatePartner
    ? {
        private: {
          partner: { id: privatePartner.id, secret: privatePartner.secret },
          appId: privatePartner.blind_app_id!,
        },
      }
    : {}),
  logger: { level: logLevel },
});

// A second signal (the group's and the one `npm start` forwards) must not kill it mid-close.
let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    void app.close().then(() => process.exit(0));
  });
}

const host = process.env.PARTNER_HOST || '127.0.0.1';
await app.listen({ port, host }).catch((error: NodeJS.ErrnoException) => {
  if (error.code === 'EADDRINUSE')
    fail(
      `port ${port} (PARTNER_PORT) on ${host} is in use by another process; stop it or set PARTNER_PORT to a free port`,
    );
  throw error;
});
app.log.info(
  { url: `http://localhost:${port}`, service: serviceUrl, partner: partnerId, blind: blindPartner?.id ?? null },
  'example partner ready',
);
