/**
 * The Python and PHP partner SDKs (sdk/python, sdk/php; design.md §1) against one running
 * service, started as the journeys start it (a real `server/main.ts` in sandbox mode, on a free
 * port, with its own data directory). This file drives the visitor's side over HTTP, as the
 * widget and the sandbox phone would: a STANDARD grant per language, an ADULT_BLIND attestation
 * (JWS) and a private attestation (RFC 9578 token, blinded here with @cloudflare/privacypass-ts
 * as the widget does). It hands them to pytest and PHPUnit in a JSON file (SVC_SDK_LIVE); each
 * suite then exchanges, introspects, opens a billing session and verifies the attestations with
 * its own SDK, and sends the forged inputs. The rate-limit tests run last, in both languages,
 * because they spend the client address's billing budget for the minute.
 * Needs Debian's /usr/bin/python3 (python3-pytest, python3-cryptography), php-cli and phpunit
 * (.ci/run installs them); `npm run test:sdk` runs this file with the TypeScript SDK's.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../e2e/support/service.ts';
import { prepareLive } from '../server/test/sdk-live.ts';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..');
const PYTHON = '/usr/bin/python3';
const SLOW = 120_000;

let svc: RunningService;
let work: string;
let liveFile: string;

beforeAll(async () => {
  svc = await startService({ SVC_MODE: 'sandbox' });
  work = mkdtempSync(join(tmpdir(), 'svc-sdk-polyglot-'));
  liveFile = join(work, 'live.json');
  writeFileSync(liveFile, JSON.stringify(await prepareLive(svc.url, ['python', 'php'])));
}, SLOW);

afterAll(async () => {
  await svc?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

const env = () => ({ ...process.env, SVC_SDK_LIVE: liveFile, PYTHONDONTWRITEBYTECODE: '1' });

/** Runs a suite; its output is shown when it fails. */
async function suite(command: string, args: string[], cwd: string) {
  try {
    const { stdout } = await run(command, args, { cwd, env: env(), timeout: SLOW, maxBuffer: 16 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed:\n${stdout}\n${stderr}`, { cause: error });
  }
}

const pytest = (marker: string) =>
  suite(PYTHON, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', '-m', marker], join(ROOT, 'sdk', 'python'));
const phpunit = (group: string[]) => suite('phpunit', ['--colors=never', ...group], join(ROOT, 'sdk', 'php'));

describe('the PHP package', () => {
  it('is a valid Composer package (composer validate --strict, offline)', async () => {
    const { stdout, stderr } = await run(
      'composer',
      ['validate', '--strict', '--no-check-publish', '--no-interaction'],
      {
        cwd: join(ROOT, 'sdk', 'php'),
        env: { ...process.env, COMPOSER_DISABLE_NETWORK: '1', COMPOSER_NO_AUDIT: '1' },
      },
    );
    expect(`${stdout}${stderr}`).toContain('composer.json is valid');
  });
});

describe('the example apps (examples/python, examples/php)', () => {
  it('parse in their language', async () => {
    await run('php', ['-l', join(ROOT, 'examples', 'php', 'index.php')]);
    await run(PYTHON, [
      '-c',
      'import ast, sys; ast.parse(open(sys.argv[1]).read())',
      join(ROOT, 'examples', 'python', 'app.py'),
    ]);
  });
});

describe('the Python and PHP SDKs against a running service', () => {
  it(
    'pass their pytest suite: known answers, grant, billing session, both attestations and each forgery refused',
    async () => {
      expect(await pytest('not ratelimit')).toMatch(/\b(2\d|[3-9]\d) passed, 1 deselected/);
    },
    SLOW,
  );

  it(
    'pass their PHPUnit suite: the same cases in PHP',
    async () => {
      expect(await phpunit(['--exclude-group', 'ratelimit'])).toMatch(/OK \((2\d|[3-9]\d) tests,/);
    },
    SLOW,
  );

  it(
    'honour the Retry-After of a real 429 in both languages (run last: it spends the minute’s billing budget)',
    async () => {
      expect(await pytest('ratelimit')).toMatch(/\b1 passed/);
      expect(await phpunit(['--group', 'ratelimit'])).toMatch(/OK \(1 test,/);
    },
    SLOW,
  );
});
