/**
 * Unlinkability of private attestations (docs/privacy.md, docs/adult-blind.md#private-attestations):
 * over 1,000 issuances through the real HTTP routes and a SQLite file, neither the store's bytes
 * nor the log lines hold any final token, its nonce or the page's redemption context, in any
 * usual encoding, nor a SHA-256 digest of one (the metrics scrape after private issuances:
 * private-attestation.widget.test.ts). And the same token input blinds to a different message every time.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, existsSync } from 'node:fs';
import { RSABSSA } from '@cloudflare/blindrsa-ts';
import { publicVerif } from '@cloudflare/privacypass-ts';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from './store/sqlite.ts';
import { makeTempDir, makeTestApp, type TestApp } from './test/helpers.ts';
import { fetchPrivateKeySet, issuePrivateToken } from './test/private-client.ts';
import { completeOnPhone, startBlindFlow } from './test/verify-flow.ts';

const ISSUANCES = 1_000;

/** Every way a secret value could have been written down: raw, hex, base64, base64url, and digests of those. */
function encodingsOf(bytes: Buffer, text?: string): { raw: Buffer[]; text: string[] } {
  const forms = [bytes.toString('hex'), bytes.toString('base64url'), bytes.toString('base64')];
  if (text !== undefined) forms.push(text);
  const digests = [bytes, ...forms.map((f) => Buffer.from(f))].map((b) => createHash('sha256').update(b).digest());
  return {
    raw: [bytes, ...digests],
    text: [...forms, ...digests.flatMap((d) => [d.toString('hex'), d.toString('base64url'), d.toString('base64')])],
  };
}

/**
 * Every secret of `secrets` found in `bytes` (raw forms) or in `texts` (text forms), in one pass
 * each: a long needle is looked for by its first 43 bytes or characters (it cannot be there
 * without them), and each window of the haystack is looked up in a set, not searched for.
 */
function findIn(bytes: Buffer, texts: string[], secrets: { raw: Buffer[]; text: string[] }[], where: string): string[] {
  const PREFIX = 43;
  const rawByHead = new Map<bigint, Buffer[]>();
  for (const needle of secrets.flatMap((s) => s.raw)) {
    const head = needle.readBigUInt64BE(0);
    rawByHead.set(head, [...(rawByHead.get(head) ?? []), needle]);
  }
  const found: string[] = [];
  for (let i = 0; i + 8 <= bytes.length; i++) {
    const candidates = rawByHead.get(bytes.readBigUInt64BE(i));
    for (const needle of candidates ?? [])
      if (bytes.subarray(i, i + needle.length).equals(needle)) found.push(`${where}: ${needle.toString('hex')}`);
  }
  const textNeedles = new Set(secrets.flatMap((s) => s.text.map((t) => t.slice(0, PREFIX))));
  for (const text of texts)
    for (const run of text.match(/[A-Za-z0-9+/=_.-]{43,}/g) ?? [])
      for (let i = 0; i + PREFIX <= run.length; i++)
        if (textNeedles.has(run.slice(i, i + PREFIX))) found.push(`${where}: ${run.slice(i, i + PREFIX)}`);
  return found;
}

describe('private attestations over 1,000 issuances', () => {
  let t: TestApp;
  let dir: { path: string; remove(): void };
  afterAll(() => dir?.remove());

  it('leave no token, nonce or redemption context, nor a digest of one, in the store or the logs', async () => {
    dir = makeTempDir('svc-unlinkability-');
    const lines: string[] = [];
    t = await makeTestApp({ store: openSqliteStore(`${dir.path}/svc.sqlite`), log: { lines, level: 'debug' } });
    const keySet = await fetchPrivateKeySet(t);
    const secrets: { raw: Buffer[]; text: string[] }[] = [];
    const blinded = new Set<string>();
    let pollToken = '';
    for (let i = 0; i < ISSUANCES; i++) {
      // one visitor's pace, under the per-address limit of creates and issuances (120 per 60 s)
      t.clock.advance(1_500);
      const flow = await startBlindFlow(t, { attestation: 'private' });
      pollToken = flow.pollToken;
      await completeOnPhone(t, flow);
      const issued = await issuePrivateToken(t, flow, { keySet });
      const token = Buffer.from(issued.token.serialize());
      secrets.push(encodingsOf(token, issued.attestation));
      secrets.push(encodingsOf(Buffer.from(issued.token.authInput.nonce)));
      secrets.push(encodingsOf(Buffer.from(issued.redemptionContext)));
      secrets.push(encodingsOf(Buffer.from(issued.token.authenticator)));
      blinded.add(Buffer.from(issued.tokenRequest.subarray(3)).toString('hex'));
    }
    expect(blinded.size).toBe(ISSUANCES);
    await t.close();

    const store = Buffer.concat(
      ['svc.sqlite', 'svc.sqlite-wal']
        .map((f) => `${dir.path}/${f}`)
        .filter(existsSync)
        .map((f) => readFileSync(f)),
    );
    const logs = lines.join('\n');
    expect(lines.length).toBeGreaterThan(ISSUANCES);
    const storeText = store.toString('latin1');
    const found = [
      ...findIn(store, [storeText], secrets, 'store'),
      ...findIn(Buffer.alloc(0), [logs], secrets, 'logs'),
    ];
    expect(found).toEqual([]);
    // The scan does see what the store keeps: the last poll token's digest, as design.md §5 says.
    expect(findIn(store, [storeText], [encodingsOf(Buffer.from(pollToken), pollToken)], 'store')).not.toEqual([]);
  }, 900_000);

  it('blind the same token input differently each time, and each blinding still signs', async () => {
    const app = await makeTestApp();
    try {
      const key = (await fetchPrivateKeySet(app)).keys[0]!;
      const publicKey = await crypto.subtle.importKey(
        'spki',
        publicVerif.convertRSASSAPSSToEnc(new Uint8Array(Buffer.from(key.public_key, 'base64url'))),
        { name: 'RSA-PSS', hash: 'SHA-384' },
        true,
        ['verify'],
      );
      const suite = RSABSSA.SHA384.PSS.Deterministic();
      const tokenInput = new Uint8Array(randomBytes(98));
      const outputs = await Promise.all(Array.from({ length: 20 }, () => suite.blind(publicKey, tokenInput)));
      const messages = new Set(outputs.map((o) => Buffer.from(o.blindedMsg).toString('hex')));
      expect(messages.size).toBe(20);
      expect([...messages].some((m) => m.includes(Buffer.from(tokenInput).toString('hex')))).toBe(false);
      const record = (await app.store.listKeys('private-attestation'))[0]!;
      const { maskSigningKey } = await import('./crypto/private-attestation.ts');
      const signer = maskSigningKey(record, key.scope_mask)!;
      for (const { blindedMsg, inv } of outputs.slice(0, 3)) {
        const signature = await suite.finalize(publicKey, tokenInput, signer.sign(blindedMsg), inv);
        expect(await suite.verify(publicKey, signature, tokenInput)).toBe(true);
      }
    } finally {
      await app.close();
    }
  }, 60_000);
});
