/** `svc wallet present` (design.md §11): the sandbox wallet answers an av:// link over the given transport. */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors.ts';
import { createFakeClock } from '../clock.ts';
import { makeTestApp, makeTestDeps } from '../test/helpers.ts';
import { pollStatus, startStandardFlow } from '../test/verify-flow.ts';
import type { FormPoster } from '../sandbox/phone-wallet.ts';
import { runWalletCommand } from './wallet.ts';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) }, out, err };
}

describe('svc wallet present', () => {
  it('presents a persona to the link, and a tampered presentation is refused while the request keeps waiting', async () => {
    const clock = createFakeClock(Date.now());
    const t = await makeTestApp({ clock });
    const post: FormPoster = async (url, body) => {
      const res = await t.app.inject({
        method: 'POST',
        url: new URL(url).pathname,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: body,
      });
      return { status: res.statusCode, body: res.body };
    };
    const flow = await startStandardFlow(t, { scopes: ['isAdult'], client_proof_mode: true });
    const link = flow.created.wallet_link!;

    const tampered = capture();
    expect(
      await runWalletCommand(['present', link, '--persona', 'fr-adult-m', '--tamper', 'mso-doctype'], tampered.io, {
        clock,
        post,
      }),
    ).toBe(1);
    expect(tampered.out.join('\n')).toMatch(/→ 400 .*invalid_request/);
    expect((await pollStatus(t, flow)).status).toBe('pending');

    const ok = capture();
    expect(await runWalletCommand(['present', link, '--persona=fr-adult-m'], ok.io, { clock, post })).toBe(0);
    expect(ok.out.join('\n')).toMatch(/→ 200 \{"redirect_uri":"[^"]+\/done#response_code=[\w-]{43}"\}/);
    expect((await pollStatus(t, flow)).status).toBe('completed');
    await t.close();
  });

  it('presents the credential chosen with --credential (default the first the link accepts), and says what it disclosed', async () => {
    const clock = createFakeClock(Date.now());
    const t = await makeTestApp({ clock });
    const post: FormPoster = async (url, body) => {
      const res = await t.app.inject({
        method: 'POST',
        url: new URL(url).pathname,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: body,
      });
      return { status: res.statusCode, body: res.body };
    };
    const flow = await startStandardFlow(t, { scopes: ['isAdult', 'isFrench'], client_proof_mode: true });
    const link = flow.created.wallet_link!;
    expect(link).toMatch(/^openid4vp:\/\//);

    const refused = capture();
    expect(await runWalletCommand(['present', link, '--persona', 'de-adult', '--credential', 'av'], refused.io)).toBe(
      2,
    );
    expect(refused.err.join('\n')).toMatch(/does not accept av \(it accepts pid, mdl, pid_sd\)/);
    const unknown = capture();
    expect(
      await runWalletCommand(['present', link, '--persona', 'de-adult', '--credential', 'passport'], unknown.io),
    ).toBe(2);

    const mdl = capture();
    const code = await runWalletCommand(
      ['present', link, '--persona', 'de-adult', '--credential', 'mdl', '--tamper', 'nationality'],
      mdl.io,
      { clock, post },
    );
    expect(code).toBe(1);
    expect(mdl.out[0]).toBe('presenting mdl as mdl, disclosing {"age_over_18":true,"nationality":"DE"}');

    const pid = capture();
    expect(await runWalletCommand(['present', link, '--persona', 'fr-adult-f'], pid.io, { clock, post })).toBe(0);
    expect(pid.out).toEqual([
      'presenting pid as pid, disclosing {"age_over_18":true,"nationality":["FR"]}',
      expect.stringMatching(/^POST http:\/\/localhost:8787\/oid4vp\/response\/vr_\S+ → 200 \{"redirect_uri":"\S+"\}$/),
    ]);
    expect((await pollStatus(t, flow)).status).toBe('completed');
    await t.close();
  });

  it('presents the PID without age_over_18 (--credential pid-no-age): it discloses the birth date, the request completes', async () => {
    const clock = createFakeClock(Date.now());
    const t = await makeTestApp({ clock });
    const post: FormPoster = async (url, body) => {
      const res = await t.app.inject({
        method: 'POST',
        url: new URL(url).pathname,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: body,
      });
      return { status: res.statusCode, body: res.body };
    };
    const flow = await startStandardFlow(t, { scopes: ['isAdult', 'isFrench'], client_proof_mode: true });
    const c = capture();
    const args = ['present', flow.created.wallet_link!, '--persona', 'fr-adult-f', '--credential', 'pid-no-age'];
    expect(await runWalletCommand(args, c.io, { clock, post })).toBe(0);
    expect(c.out[0]).toBe('presenting pid as pid, disclosing {"birth_date":"1998-07-02","nationality":["FR"]}');
    expect((await pollStatus(t, flow)).status).toBe('completed');
    const usage = capture();
    await runWalletCommand(['present'], usage.io);
    expect(usage.err.join('\n')).toMatch(/--credential av\|pid\|pid-no-age\|mdl\|pid-sd-jwt\|pid-sd-jwt-revoked\]/);
    expect(usage.err.join('\n')).toMatch(/pid-no-age +EU PID as rulebook 1\.1 issues it/);
    await t.close();
  });

  it('presents the SD-JWT VC PID over HTTP to a listening service: it completes, and --revoked is refused (design.md §15)', async () => {
    // A free port first: the service's URL (and so its status list's) names it.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const clock = createFakeClock(Date.now());
    const t = await makeTestApp({ clock, env: { SVC_PUBLIC_URL: `http://127.0.0.1:${port}` } });
    await t.app.listen({ port, host: '127.0.0.1' });
    try {
      const revokedFlow = await startStandardFlow(t, { scopes: ['isAdult', 'isFrench'], client_proof_mode: true });
      const revoked = capture();
      const link = revokedFlow.created.wallet_link!;
      const args = ['present', link, '--persona', 'fr-adult-f', '--credential', 'pid-sd-jwt', '--revoked'];
      expect(await runWalletCommand(args, revoked.io, { clock })).toBe(1);
      expect(revoked.out[1]).toMatch(/→ 400 \{"error":"invalid_request","error_description":"credential revoked"\}$/);
      expect((await pollStatus(t, revokedFlow)).status).toBe('pending');

      const c = capture();
      expect(await runWalletCommand(args.slice(0, -1), c.io, { clock })).toBe(0);
      expect(c.out[0]).toBe(
        'presenting pid_sd as pid_sd, disclosing {"birthdate":"1998-07-02","nationalities":["FR"]}',
      );
      expect((await pollStatus(t, revokedFlow)).status).toBe('completed');
    } finally {
      await t.close();
    }
  });

  it.each([
    [['present']],
    [['present', 'https://not-a-link', '--persona', 'fr-adult-m']],
    [['present', 'av://?x=1', '--persona', 'nobody']],
    [['present', 'av://?x=1', '--persona', 'fr-adult-m', '--tamper', 'everything']],
    [['show', 'av://?x=1']],
  ])('answers a usage error for %j', async (args) => {
    const c = capture();
    expect(await runWalletCommand(args, c.io, { post: () => Promise.reject(new Error('no post')) })).toBe(2);
    expect(c.err.join('\n')).toMatch(/svc wallet|Usage/);
  });
});

describe('SVC_WALLET_TRUST at boot', () => {
  it('stops with one line naming the variable when the bundle cannot be read', async () => {
    const error = await makeTestDeps({ env: { SVC_WALLET_TRUST: '/nonexistent/trust.pem' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/^SVC_WALLET_TRUST: cannot read \/nonexistent\/trust\.pem$/);
  });
});
