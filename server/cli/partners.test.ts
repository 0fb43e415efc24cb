import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../app.ts';
import { buildDeps, openServiceStore } from '../boot.ts';
import { createFakeClock } from '../clock.ts';
import { loadConfig } from '../config.ts';
import { openSqliteStore } from '../store/sqlite.ts';
import { REPO_ROOT, TEST_MASTER_KEY, makeTempDir, putTestGrant, signedInject } from '../test/helpers.ts';
import { runCli } from './dispatch.ts';
import { runKeysCommand } from './keys.ts';
import { runPartnersCommand } from './partners.ts';

let dir: ReturnType<typeof makeTempDir>;
/** variables a test adds to the operator's environment */
let extraEnv: NodeJS.ProcessEnv = {};
let out: string[];
let err: string[];
const clock = createFakeClock();
const NULLIFIER_KEY = Buffer.alloc(32, 9).toString('base64');

beforeEach(() => {
  dir = makeTempDir();
  extraEnv = {};
  out = [];
  err = [];
});
afterEach(() => dir.remove());

function env(mode: 'sandbox' | 'production' = 'sandbox'): NodeJS.ProcessEnv {
  return {
    NODE_ENV: 'test',
    SVC_DATA_DIR: dir.path,
    SVC_MODE: mode,
    ...(mode === 'production' ? { SVC_NULLIFIER_KEY: NULLIFIER_KEY, SVC_MASTER_KEY: TEST_MASTER_KEY } : {}),
    ...extraEnv,
  };
}

/** `svc partners …` as the operator runs it: the environment picks the store. */
function svc(args: string[], mode: 'sandbox' | 'production' = 'sandbox', command = 'partners') {
  return runCli(
    { partners: { summary: '', run: runPartnersCommand }, keys: { summary: '', run: runKeysCommand } },
    [command, ...args],
    {
      env: env(mode),
      cwd: REPO_ROOT,
      clock,
      io: { out: (l) => out.push(l), err: (l) => err.push(l) },
    },
  );
}

/** What the service reads back: the store opened as the service opens it (mode, master key). */
async function storedPartners(mode: 'sandbox' | 'production' = 'sandbox') {
  const { store } = await openServiceStore(loadConfig(env(mode), REPO_ROOT));
  try {
    return await store.listPartners();
  } finally {
    await store.close();
  }
}

describe('svc partners add', () => {
  it('issues a pk_test_ ID and a 32-byte base64 secret in sandbox mode, printed once', async () => {
    expect(await svc(['add', '--domain', 'https://shop.example', '--rail', 'standard'])).toBe(0);
    const [partner] = await storedPartners();
    expect(partner!.id).toMatch(/^pk_test_[0-9a-f]{24}$/);
    expect(Buffer.from(partner!.secret, 'base64')).toHaveLength(32);
    expect(partner).toMatchObject({
      domain: 'https://shop.example',
      rail: 'standard',
      name: 'shop.example',
      blindAppId: null,
      allowedScopes: null,
    });
    const printed = out.join('\n');
    expect(printed).toContain(partner!.id);
    expect(printed.split(partner!.secret)).toHaveLength(2);
    expect(err).toEqual([]);
  });

  it('issues pk_live_ IDs in production mode', async () => {
    expect(await svc(['add', '--domain', 'https://shop.example', '--rail', 'standard', '--json'], 'production')).toBe(
      0,
    );
    const printed = JSON.parse(out[0]!);
    expect(printed.id).toMatch(/^pk_live_/);
    expect((await storedPartners('production'))[0]!.secret).toBe(printed.secret);
  });

  it('stores an adult_blind partner with its blind app, name and scopes (--flag=value accepted)', async () => {
    const code = await svc([
      'add',
      '--domain=https://club.example:8443',
      '--rail=adult_blind',
      '--blind-app-id',
      'app_club',
      '--scopes',
      'isAdult,isUnique',
      '--name',
      'The Club',
    ]);
    expect(code).toBe(0);
    expect((await storedPartners())[0]).toMatchObject({
      rail: 'adult_blind',
      blindAppId: 'app_club',
      allowedScopes: ['isAdult', 'isUnique'],
      name: 'The Club',
      domain: 'https://club.example:8443',
    });
  });

  it('onboards a production service: keys, then a partner it accepts at once', async () => {
    const config = loadConfig({ ...env('production') }, REPO_ROOT);
    expect(await svc(['rotate'], 'production', 'keys')).toBe(0);
    expect(await svc(['rotate', '--purpose', 'session'], 'production', 'keys')).toBe(0);
    out = [];
    expect(await svc(['add', '--domain', 'https://shop.example', '--rail', 'standard', '--json'], 'production')).toBe(
      0,
    );
    const created = JSON.parse(out[0]!) as { id: string; secret: string };
    const store = openSqliteStore(join(dir.path, 'svc.sqlite'));
    const deps = await buildDeps(config, { store, clock });
    const app = await createApp(deps);
    try {
      const grantCode = await putTestGrant(deps, { partnerId: created.id });
      const res = await signedInject(
        { app, clock },
        { url: '/v1/exchange', body: { grant_code: grantCode }, partner: created },
      );
      expect(res.statusCode).toBe(200);
    } finally {
      await app.close();
      await store.close();
    }
  });

  it.each([
    [[], /--domain is required/],
    [['--domain', 'https://a.example'], /--rail is required/],
    [['--domain', 'https://a.example/', '--rail', 'standard'], /--domain must be an origin/],
    [['--domain', 'a.example', '--rail', 'standard'], /--domain must be an origin/],
    [['--domain', 'https://a.example', '--rail', 'gold'], /--rail must be standard or adult_blind/],
    [['--domain', 'https://a.example', '--rail', 'standard', '--blind-app-id', 'x'], /only for --rail adult_blind/],
    [
      ['--domain', 'https://a.example', '--rail', 'adult_blind', '--blind-app-id', 'has space'],
      /--blind-app-id must match/,
    ],
    [['--domain', 'https://a.example', '--rail', 'standard', '--scopes', 'isAdult,isOld'], /unknown scope "isOld"/],
    [['--domain', 'https://a.example', '--rail', 'standard', '--scopes', 'isAdult,isAdult'], /twice/],
    [
      [
        '--domain',
        'https://a.example',
        '--rail',
        'adult_blind',
        '--blind-app-id',
        'a',
        '--scopes',
        'isAdult,revealBirthYear',
      ],
      /not available on the adult_blind rail/,
    ],
    [['--domain', 'https://a.example', '--rail', 'adult_blind'], /--rail adult_blind needs --blind-app-id/],
    [['--domain', 'https://a.example', '--rail', 'standard', '--name', ''], /--name must be 1 to 100 printable/],
    [['--domain', 'https://a.example', '--rail', 'standard', '--name', 'x'.repeat(101)], /--name must be 1 to 100/],
    [['--domain', 'https://a.example', '--rail', 'standard', '--colour', 'red'], /unknown flag --colour/],
    [['--domain', 'https://a.example', '--domain', 'https://b.example', '--rail', 'standard'], /--domain given twice/],
    [['--domain'], /--domain needs a value/],
    [['--domain', '--rail', 'standard'], /--domain needs a value/],
    [['https://a.example'], /unexpected argument/],
  ])('refuses %j with exit code 2 and a clear message, storing nothing', async (args, message) => {
    expect(await svc(['add', ...args])).toBe(2);
    // one line saying what is wrong, one saying where the usage is: not the whole usage
    expect(err.join('\n').split('\n')).toEqual([
      expect.stringMatching(/^svc partners add: /),
      '(the usage: npm run svc -- partners help)',
    ]);
    expect(err.join('\n')).toMatch(message);
    expect(out).toEqual([]);
    expect(await storedPartners()).toEqual([]);
  });

  it('refuses a blind app id that another partner already has', async () => {
    await svc(['add', '--domain', 'https://a.example', '--rail', 'adult_blind', '--blind-app-id', 'app_one']);
    expect(
      await svc(['add', '--domain', 'https://b.example', '--rail', 'adult_blind', '--blind-app-id', 'app_one']),
    ).toBe(2);
    expect(err.join('\n')).toMatch(/already belongs to pk_test_/);
    expect(await storedPartners()).toHaveLength(1);
  });

  it('fails with exit code 1 and one line when the environment is wrong', async () => {
    const code = await runCli({ partners: { summary: '', run: runPartnersCommand } }, ['partners', 'list'], {
      env: { SVC_MODE: 'production', SVC_DATA_DIR: dir.path },
      io: { out: (l) => out.push(l), err: (l) => err.push(l) },
    });
    expect(code).toBe(1);
    expect(err).toEqual(['svc: SVC_MODE=production requires SVC_NULLIFIER_KEY (base64 of 32 random bytes)']);
  });
});

describe('svc partners list', () => {
  it('lists partners without ever printing a secret', async () => {
    await svc(['add', '--domain', 'https://a.example', '--rail', 'standard', '--scopes', 'isAdult']);
    await svc(['add', '--domain', 'https://b.example', '--rail', 'adult_blind', '--blind-app-id', 'app_b']);
    const partners = await storedPartners();
    out = [];
    expect(await svc(['list'])).toBe(0);
    const table = out.join('\n');
    expect(out[0]).toMatch(/^PARTNER ID\s+RAIL\s+DOMAIN\s+BLIND APP\s+SCOPES\s+STATUS\s+NAME\s+CREATED$/);
    for (const p of partners) {
      expect(table).toContain(p.id);
      expect(table).not.toContain(p.secret);
    }
    expect(table).toContain('app_b');

    out = [];
    expect(await svc(['list', '--json'])).toBe(0);
    const listed = JSON.parse(out[0]!) as Array<Record<string, unknown>>;
    expect(listed.map((p) => p.id)).toEqual(partners.map((p) => p.id));
    expect(listed.every((p) => !('secret' in p))).toBe(true);
  });

  it('says how to add one when there are none', async () => {
    expect(await svc(['list'])).toBe(0);
    expect(out.join('\n')).toMatch(/no partners yet/);
  });
});

describe('the console’s fix for a page on an unregistered origin', () => {
  /** The loader's first request from `origin` to a production service on the test's folder; its warnings. */
  async function createFrom(origin: string, partnerId: string) {
    const deps = await buildDeps(loadConfig(env('production'), REPO_ROOT), { clock });
    const app = await createApp(deps);
    try {
      const res = await app.inject({
        method: 'POST',
        url: '/api/w/verify-request',
        headers: { 'content-type': 'text/plain;charset=UTF-8', origin },
        payload: JSON.stringify({ partner_id: partnerId, scopes: ['isAdult'], attributes: ['partnerId'] }),
      });
      return { status: res.statusCode, warnings: (res.json() as { warnings?: string[] }).warnings ?? [] };
    } finally {
      await app.close();
      await deps.store.close();
    }
  }

  /** The arguments after `npm run svc --` in a console line, as a shell would split them. */
  const commandOf = (line: string): string[] => line.split('npm run svc -- ')[1]!.split(' ');

  it('runs as printed: `partners update <id> --domain <origin>` for an existing partner, then the page is served', async () => {
    expect(await svc(['rotate'], 'production', 'keys')).toBe(0);
    expect(await svc(['rotate', '--purpose', 'session'], 'production', 'keys')).toBe(0);
    expect(await svc(['add', '--domain', 'https://old.example', '--rail', 'standard', '--json'], 'production')).toBe(0);
    const { id } = JSON.parse(out.pop()!) as { id: string };
    const refused = await createFrom('https://new.example', id);
    expect(refused.status).toBe(403);
    expect(refused.warnings).toEqual([
      `https://new.example is not ${id}'s domain: npm run svc -- partners update ${id} --domain https://new.example`,
    ]);
    const [command, ...args] = commandOf(refused.warnings[0]!);
    expect(await svc(args, 'production', command)).toBe(0);
    expect((await createFrom('https://new.example', id)).status).not.toBe(403);
  });

  it('runs as printed: `partners add` with the required flags for an unknown partner id', async () => {
    expect(await svc(['rotate'], 'production', 'keys')).toBe(0);
    expect(await svc(['rotate', '--purpose', 'session'], 'production', 'keys')).toBe(0);
    expect(await svc(['add', '--domain', 'https://first.example', '--rail', 'standard'], 'production')).toBe(0);
    const refused = await createFrom('https://shop.example', 'pk_live_nobody');
    expect(refused.warnings).toEqual([
      'no partner has this id: npm run svc -- partners add --domain https://shop.example --rail standard',
    ]);
    const [command, ...args] = commandOf(refused.warnings[0]!);
    out = [];
    expect(await svc([...args, '--json'], 'production', command), err.join('\n')).toBe(0);
    const { id } = JSON.parse(out.pop()!) as { id: string };
    expect((await createFrom('https://shop.example', id)).status).not.toBe(403);
  });
});

describe('svc partners rotate-secret, disable and enable', () => {
  /** A production service on the test's data folder, answering signed exchanges. */
  async function service() {
    const config = loadConfig(env('production'), REPO_ROOT);
    const deps = await buildDeps(config, { clock });
    const app = await createApp(deps);
    const exchange = async (partner: { id: string; secret: string }) => {
      const grantCode = await putTestGrant(deps, { partnerId: partner.id });
      return signedInject({ app, clock }, { url: '/v1/exchange', body: { grant_code: grantCode }, partner });
    };
    return { exchange, close: async () => (await app.close(), await deps.store.close()) };
  }

  async function onboard() {
    expect(await svc(['rotate'], 'production', 'keys')).toBe(0);
    expect(await svc(['rotate', '--purpose', 'session'], 'production', 'keys')).toBe(0);
    out = [];
    expect(await svc(['add', '--domain', 'https://shop.example', '--rail', 'standard', '--json'], 'production')).toBe(
      0,
    );
    return JSON.parse(out.pop()!) as { id: string; secret: string };
  }

  it('accepts the old secret inside the overlap and refuses it after; the new one works at once', async () => {
    const old = await onboard();
    expect(await svc(['rotate-secret', old.id, '--overlap-hours', '24', '--json'], 'production')).toBe(0);
    const rotated = JSON.parse(out.pop()!) as { id: string; secret: string; previous_secret_valid_until: string };
    expect(rotated.secret).not.toBe(old.secret);
    expect(Date.parse(rotated.previous_secret_valid_until)).toBe(clock.now() + 24 * 3_600_000);

    const running = await service();
    try {
      expect((await running.exchange({ id: old.id, secret: rotated.secret })).statusCode).toBe(200);
      clock.advance(23 * 3_600_000);
      expect((await running.exchange(old)).statusCode).toBe(200);
      clock.advance(3_600_000 + 10_000);
      const refused = await running.exchange(old);
      expect(refused.statusCode).toBe(401);
      expect(refused.json().error).toBe('INVALID_SIGNATURE');
      expect((await running.exchange({ id: old.id, secret: rotated.secret })).statusCode).toBe(200);
    } finally {
      await running.close();
    }
  });

  it('refuses the old secret at once with --overlap-hours 0, and refuses a bad overlap', async () => {
    const old = await onboard();
    expect(await svc(['rotate-secret', old.id, '--overlap-hours', '0'], 'production')).toBe(0);
    expect(out.join('\n')).toMatch(/previous secret is refused from now on/);
    const running = await service();
    try {
      expect((await running.exchange(old)).json().error).toBe('INVALID_SIGNATURE');
    } finally {
      await running.close();
    }
    expect(await svc(['rotate-secret', old.id, '--overlap-hours', '-1'], 'production')).toBe(2);
    expect(await svc(['rotate-secret', old.id, '--overlap-hours', '721'], 'production')).toBe(2);
    expect(await svc(['rotate-secret', 'pk_live_nobody'], 'production')).toBe(1);
    expect(err.join('\n')).toMatch(/no partner "pk_live_nobody"/);
  });

  it('removes nothing without --yes and says what it would remove; with --yes the partner answers INVALID_PARTNER', async () => {
    const partner = await onboard();
    // A production service boots only with a partner in its store: this one stays.
    expect(await svc(['add', '--domain', 'https://kept.example', '--rail', 'standard', '--json'], 'production')).toBe(
      0,
    );
    const kept = (JSON.parse(out.pop()!) as { id: string }).id;
    expect(await svc(['remove', partner.id], 'production')).toBe(1);
    expect(err).toHaveLength(1);
    expect(err[0]).toBe(
      `svc partners remove: this would remove ${partner.id} ("shop.example", https://shop.example, rail standard) and ` +
        'its secret for good; its signed calls would answer INVALID_PARTNER. Nothing was removed: run it again with ' +
        `--yes, or use svc partners disable ${partner.id} (reversible).`,
    );
    expect(out).toEqual([]);
    expect((await storedPartners('production')).map((p) => p.id).sort()).toEqual([partner.id, kept].sort());

    expect(await svc(['remove', partner.id, '--yes'], 'production')).toBe(0);
    expect(out.pop()).toMatch(new RegExp(`^Removed ${partner.id} .*: its signed calls answer INVALID_PARTNER`));
    expect((await storedPartners('production')).map((p) => p.id)).toEqual([kept]);
    const running = await service();
    try {
      const refused = await running.exchange(partner);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error).toBe('INVALID_PARTNER');
    } finally {
      await running.close();
    }
    err = [];
    expect(await svc(['remove', partner.id, '--yes'], 'production')).toBe(1);
    expect(err).toEqual([`svc partners remove: no partner "${partner.id}"`]);
    expect(await svc(['remove'], 'production')).toBe(2);
    expect(await svc(['remove', partner.id, '--force'], 'production')).toBe(2);
    expect(err.pop()).toMatch(/^svc partners remove: unknown flag --force/);
  });

  it('answers INVALID_PARTNER to a disabled partner, and accepts it again once enabled', async () => {
    const partner = await onboard();
    expect(await svc(['disable', partner.id], 'production')).toBe(0);
    let running = await service();
    try {
      const refused = await running.exchange(partner);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error).toBe('INVALID_PARTNER');
    } finally {
      await running.close();
    }
    expect(await svc(['list', '--json'], 'production')).toBe(0);
    expect(JSON.parse(out.pop()!)[0]).toMatchObject({ id: partner.id, status: 'disabled' });
    expect(await svc(['enable', partner.id], 'production')).toBe(0);
    running = await service();
    try {
      expect((await running.exchange(partner)).statusCode).toBe(200);
    } finally {
      await running.close();
    }
  });
});

describe('svc partners update', () => {
  async function addBlind(domain: string, ...extra: string[]) {
    expect(await svc(['add', '--domain', domain, '--rail', 'adult_blind', '--json', ...extra])).toBe(0);
    return JSON.parse(out.pop()!) as { id: string; secret: string };
  }

  it('sets a standard partner’s wallet formats (design.md §19), stored and listed, and all gives it back the service’s', async () => {
    expect(await svc(['add', '--domain', 'https://shop.example', '--rail', 'standard', '--json'])).toBe(0);
    const { id } = JSON.parse(out.pop()!) as { id: string };
    expect(await svc(['update', id, '--wallet-formats', 'dc+sd-jwt'])).toBe(0);
    expect(out.pop()).toBe(`${id} is updated: wallet formats "all" → "dc+sd-jwt".`);
    expect((await storedPartners())[0]).toMatchObject({ id, walletFormats: 'dc+sd-jwt' });
    expect(await svc(['list', '--json'])).toBe(0);
    expect(JSON.parse(out.pop()!)[0]).toMatchObject({ id, wallet_formats: 'dc+sd-jwt' });
    expect(await svc(['update', id, '--wallet-formats', 'all'])).toBe(0);
    expect((await storedPartners())[0]).toMatchObject({ id, walletFormats: null });
  });

  it('refuses a wallet format the partner cannot use with exit code 2, changing nothing', async () => {
    extraEnv = { SVC_WALLET_FORMATS: 'mso_mdoc' };
    expect(await svc(['add', '--domain', 'https://shop.example', '--rail', 'standard', '--json'])).toBe(0);
    const { id } = JSON.parse(out.pop()!) as { id: string };
    const blind = await addBlind('https://club.example', '--blind-app-id', 'app_fmt');
    expect(await svc(['update', id, '--wallet-formats', 'mso_mdoc'])).toBe(0);
    const before = await storedPartners();
    const cases: [string[], RegExp][] = [
      [
        ['update', id, '--wallet-formats', 'dc+sd-jwt'],
        /dc\+sd-jwt is outside the service's SVC_WALLET_FORMATS=mso_mdoc/,
      ],
      [['update', id, '--wallet-formats', 'jwt_vc_json'], /--wallet-formats must be one of all, mso_mdoc, dc\+sd-jwt/],
      [['update', id, '--wallet-formats', ''], /--wallet-formats/],
      [['update', blind.id, '--wallet-formats', 'mso_mdoc'], /only for standard partners/],
    ];
    for (const [args, message] of cases) {
      err = [];
      expect(await svc(args)).toBe(2);
      expect(err.join('\n')).toMatch(message);
    }
    expect(await storedPartners()).toEqual(before);
  });

  it('changes the name, domain and blind app id it is given and keeps the ID, secret, rail and scopes', async () => {
    const partner = await addBlind('https://club.example', '--blind-app-id', 'app_old', '--scopes', 'isAdult');
    const code = await svc([
      'update',
      partner.id,
      '--name',
      'The Club',
      '--domain',
      'https://www.club.example',
      '--blind-app-id',
      'app_new',
    ]);
    expect(code).toBe(0);
    expect(out[0]).toBe(
      `${partner.id} is updated: name "club.example" → "The Club", domain "https://club.example" → ` +
        '"https://www.club.example", blind app "app_old" → "app_new".',
    );
    expect(out[1]).toMatch(/^Widgets on https:\/\/club\.example answer ORIGIN_NOT_ALLOWED from now on/);
    expect((await storedPartners())[0]).toMatchObject({
      id: partner.id,
      secret: partner.secret,
      name: 'The Club',
      domain: 'https://www.club.example',
      rail: 'adult_blind',
      blindAppId: 'app_new',
      allowedScopes: ['isAdult'],
    });
    out = [];
    expect(await svc(['update', partner.id, '--name', 'Renamed'])).toBe(0);
    expect(out).toEqual([`${partner.id} is updated: name "The Club" → "Renamed".`]);
    expect((await storedPartners())[0]).toMatchObject({ name: 'Renamed', domain: 'https://www.club.example' });
  });

  it('gives a stored adult_blind partner without a blind app id one (the repair for MISSING_BLIND_APP_ID)', async () => {
    const { store } = await openServiceStore(loadConfig(env(), REPO_ROOT));
    try {
      await store.putPartner({
        id: 'pk_test_blind_old',
        secret: Buffer.alloc(32, 1).toString('base64'),
        name: 'Old',
        domain: 'https://old.example',
        rail: 'adult_blind',
        blindAppId: null,
        allowedScopes: null,
        createdAt: clock.now(),
      });
    } finally {
      await store.close();
    }
    expect(await svc(['update', 'pk_test_blind_old', '--name', 'Old Club'])).toBe(0);
    expect(out.pop()).toBe(
      'Note: pk_test_blind_old still has no blind app id, so its billing sessions answer MISSING_BLIND_APP_ID: add --blind-app-id.',
    );
    out = [];
    expect(await svc(['update', 'pk_test_blind_old', '--blind-app-id', 'app_old'])).toBe(0);
    expect(out).toEqual(['pk_test_blind_old is updated: blind app "-" → "app_old".']);
    expect((await storedPartners())[0]).toMatchObject({ id: 'pk_test_blind_old', blindAppId: 'app_old' });
  });

  it('refuses what cannot work with exit code 2, changing nothing', async () => {
    const blind = await addBlind('https://a.example', '--blind-app-id', 'app_a');
    const other = await addBlind('https://b.example', '--blind-app-id', 'app_b');
    expect(await svc(['add', '--domain', 'https://c.example', '--rail', 'standard', '--json'])).toBe(0);
    const standard = JSON.parse(out.pop()!) as { id: string };
    const before = await storedPartners();
    const cases: [string[], RegExp][] = [
      [['update'], /the partner ID is required/],
      [
        ['update', blind.id],
        /give at least one of --name, --domain, --blind-app-id, --attestation and --wallet-formats/,
      ],
      [
        ['update', blind.id, '--blind-app-id', 'app_b'],
        new RegExp(`--blind-app-id app_b already belongs to ${other.id}`),
      ],
      [['update', blind.id, '--blind-app-id', 'has space'], /--blind-app-id must match/],
      [['update', standard.id, '--blind-app-id', 'app_c'], /--blind-app-id is only for adult_blind partners/],
      [['update', blind.id, '--domain', 'https://a.example/shop'], /--domain must be an origin/],
      [['update', blind.id, '--name', 'A\u001b[31mRED'], /--name must not hold control characters/],
      [['update', blind.id, '--rail', 'standard'], /unknown flag --rail/],
    ];
    for (const [args, message] of cases) {
      err = [];
      expect(await svc(args)).toBe(2);
      expect(err[0]!.split('\n')[0]).toMatch(/^svc partners update: /);
      expect(err[0]!.split('\n')[0]).toMatch(message);
    }
    expect(await svc(['update', 'pk_test_nobody', '--name', 'X'])).toBe(1);
    expect(err.pop()).toBe('svc partners update: no partner "pk_test_nobody"');
    expect(await svc(['update', 'pk_test_nobody', '--name', 'X'], 'production')).toBe(1);
    expect(await storedPartners()).toEqual(before);
    // Its own blind app id again is no clash.
    expect(await svc(['update', blind.id, '--blind-app-id', 'app_a'])).toBe(0);
    expect(out.pop()).toBe(`${blind.id} is unchanged.`);
  });

  it('opts an adult_blind partner in to private attestations and back (--attestation), never a standard one', async () => {
    const opted = await addBlind(
      'https://private.example',
      '--blind-app-id',
      'app_private',
      '--attestation',
      'private',
    );
    expect((await storedPartners()).find((p) => p.id === opted.id)).toMatchObject({ attestation: 'private' });
    const plain = await addBlind('https://plain.example', '--blind-app-id', 'app_plain');
    expect((await storedPartners()).find((p) => p.id === plain.id)?.attestation ?? null).toBeNull();

    expect(await svc(['update', plain.id, '--attestation', 'private'])).toBe(0);
    expect(out.pop()).toBe(`${plain.id} is updated: attestation "jws" → "private".`);
    expect(await svc(['update', opted.id, '--attestation', 'jws'])).toBe(0);
    expect(out.pop()).toBe(`${opted.id} is updated: attestation "private" → "jws".`);
    expect((await storedPartners()).find((p) => p.id === opted.id)?.attestation ?? null).toBeNull();
    expect(await svc(['list', '--json'])).toBe(0);
    expect(JSON.parse(out.join('\n')).find((p: { id: string }) => p.id === plain.id)).toMatchObject({
      attestation: 'private',
    });

    const before = await storedPartners();
    err = [];
    expect(await svc(['update', plain.id, '--attestation', 'blind'])).toBe(2);
    expect(err.pop()).toMatch(/^svc partners update: --attestation must be jws or private, got "blind"/);
    expect(
      await svc(['add', '--domain', 'https://std.example', '--rail', 'standard', '--attestation', 'private']),
    ).toBe(2);
    expect(err.pop()).toMatch(/^svc partners add: --attestation private is only for the adult_blind rail/);
    expect(await storedPartners()).toEqual(before);
  });

  it('refuses an http:// domain in production', async () => {
    expect(await svc(['add', '--domain', 'https://a.example', '--rail', 'standard', '--json'], 'production')).toBe(0);
    const { id } = JSON.parse(out.pop()!) as { id: string };
    expect(await svc(['update', id, '--domain', 'http://a.example'], 'production')).toBe(2);
    expect(err[0]).toMatch(/--domain must be https:\/\/ in production/);
    expect((await storedPartners('production'))[0]!.domain).toBe('https://a.example');
  });
});

describe('control characters in names', () => {
  /** ESC, newline, carriage return, NUL, DEL, C1 CSI, right-to-left override. */
  const HOSTILE = [
    'A\u001b[31mRED',
    'two\nlines',
    'cr\rhere',
    'nul\u0000',
    'del\u007f',
    'csi\u009b31m',
    'rtl\u202eexe',
  ];
  /** No C0, DEL or C1 control and no format character reaches the terminal. */
  const RAW = /[\p{Cc}\u202e]/u;

  it.each(HOSTILE)('refuses --name %j in add and update, storing nothing, and echoes it escaped', async (name) => {
    expect(await svc(['add', '--domain', 'https://a.example', '--rail', 'standard', '--name', name])).toBe(2);
    expect(err[0]!.split('\n')[0]).toMatch(
      /^svc partners add: --name must (not hold control characters|be 1 to 100 printable)/,
    );
    expect(err[0]!.split('\n')[0]).not.toMatch(RAW);
    expect(await storedPartners()).toEqual([]);
    expect(await svc(['add', '--domain', 'https://a.example', '--rail', 'standard', `--name=${name}`])).toBe(2);
    expect(await storedPartners()).toEqual([]);
  });

  it('escapes control characters of names already in the store, in the table and in JSON', async () => {
    const names = HOSTILE.map((n, i) => `${i} ${n}`);
    const { store } = await openServiceStore(loadConfig(env(), REPO_ROOT));
    try {
      for (const [i, name] of names.entries())
        await store.putPartner({
          id: `pk_test_forged_${i}`,
          secret: Buffer.alloc(32, i).toString('base64'),
          name,
          domain: 'https://forged.example',
          rail: 'standard',
          blindAppId: null,
          allowedScopes: null,
          createdAt: clock.now() + i,
        });
    } finally {
      await store.close();
    }
    expect(await svc(['list'])).toBe(0);
    for (const line of out) expect(line).not.toMatch(RAW);
    expect(out).toHaveLength(1 + names.length);
    const table = out.join('\n');
    expect(table).toContain('0 A\\u001b[31mRED');
    expect(table).toContain('5 csi\\u009b31m');
    out = [];
    expect(await svc(['list', '--json'])).toBe(0);
    expect(out).toHaveLength(1);
    expect(out[0]).not.toMatch(RAW);
    expect((JSON.parse(out[0]!) as { name: string }[]).map((p) => p.name)).toEqual(names);
  });
});

describe('svc dispatch', () => {
  it('prints the command list for help and exits 0; exits 2 without a command or with an unknown one', async () => {
    const commands = { partners: { summary: 'partners', run: runPartnersCommand } };
    const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l) };
    expect(await runCli(commands, ['help'], { io })).toBe(0);
    expect(out.join('\n')).toContain('svc partners');
    expect(await runCli(commands, [], { io })).toBe(2);
    expect(await runCli(commands, ['partner'], { io })).toBe(2);
    expect(err.join('\n')).toContain('unknown command "partner"');
  });

  it('hands the process to a long-running command and returns no exit code', async () => {
    let started: string[] | null = null;
    const code = await runCli(
      { serve: { summary: '', start: async (args) => void (started = args) } },
      ['serve', '--x'],
      { io: { out: () => undefined, err: () => undefined } },
    );
    expect(code).toBeNull();
    expect(started).toEqual(['--x']);
  });
});
