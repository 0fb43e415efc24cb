/**
 * `svc wallet present '<av://… | openid4vp://…>' --persona <id>
 * [--credential av|pid|pid-no-age|pid-sd-jwt|mdl] [--revoked] [--tamper <what>] [--encoding json|brackets]`:
 * the sandbox wallet (test support, design.md §11, §13, §15) answers a wallet link as a phone
 * wallet would, posting a sandbox persona's credential — the proof of age, the EU PID (an mdoc
 * with or without age_over_18, or an SD-JWT VC) or the mobile driving licence; default the first
 * the link accepts — to the link's response_uri over HTTP, disclosing only the elements the link
 * asks. A signed link (`openid4vp://?client_id=x509_hash:…&request_uri=…`, docs/design.md §16) is
 * fetched from its request_uri and verified first, and the answer encrypted to its key. The
 * credential points to the service's sandbox status list (`/sandbox/status/1` beside the
 * response_uri's `/oid4vp/…`), at its revoked entry with `--revoked`. It prints the
 * elements it disclosed (sandbox test data) and the verifier's answer. `--tamper` breaks one thing
 * on purpose, for QA; the verifier must then refuse it and the request stays waiting. Only a
 * sandbox service trusts the sandbox issuer. Needs no store.
 */
import { systemClock, type Clock } from '../clock.ts';
import { findPersona, loadPersonas } from '../sandbox/personas.ts';
import { postFormOverHttp, type FormPoster } from '../sandbox/phone-wallet.ts';
import { loadSandboxIssuer } from '../sandbox/wallet/sandbox-issuer.ts';
import {
  askedByDcql,
  chooseCredential,
  createDirectPost,
  CredentialChoiceError,
  elementsToDisclose,
  isSandboxWalletChoice,
  isWalletTamper,
  personaElements,
  SANDBOX_CREDENTIALS,
  WALLET_TAMPERS,
} from '../sandbox/wallet/sandbox-wallet.ts';
import { personaPidClaims } from '../sandbox/wallet/sandbox-sd-jwt.ts';
import { SANDBOX_STATUS_LIST_PATH } from '../sandbox/wallet/sandbox-status-list.ts';
import { PID_SD_QUERY_ID, RESPONSE_PATH, parseWalletLink, WalletLinkError } from '../wallet/index.ts';
import {
  fetchRequestObjectOverHttp,
  isSignedLink,
  readSignedRequest,
  type RequestObjectFetcher,
} from '../sandbox/wallet/signed-request-reader.ts';
import { parseFlags } from './args.ts';
import type { CliIo } from './dispatch.ts';
import { usageHint } from './usage-hint.ts';

/** What each --credential proves, for the usage text (design.md §13, §15). */
const CREDENTIAL_HELP: Readonly<Record<keyof typeof SANDBOX_CREDENTIALS, string>> = {
  av: 'proof of age: isAdult from age_over_18',
  pid: 'EU PID: isAdult from age_over_18, isFrench, isEU',
  'pid-no-age': 'EU PID as rulebook 1.1 issues it, no age_over_18: isAdult from birth_date, isFrench, isEU',
  mdl: 'mobile driving licence: as pid, nationality permitting',
  'pid-sd-jwt': 'EU PID as an SD-JWT VC (birthdate, nationalities, key binding): isAdult, isFrench, isEU',
  'pid-sd-jwt-revoked': 'pid-sd-jwt at the revoked entry of the status list (as --revoked)',
};
const CHOICES = Object.keys(SANDBOX_CREDENTIALS).join('|');

const USAGE = [
  `Usage: svc wallet present '<av://… | openid4vp://…>' --persona <id> [--credential ${CHOICES}]`,
  '                          [--revoked] [--tamper <what>] [--encoding json|brackets]',
  '',
  "The sandbox wallet presents a sandbox persona's credential to the link's response_uri",
  '(default the first the link accepts), disclosing only the elements asked:',
  ...Object.entries(CREDENTIAL_HELP).map(([choice, help]) => `  ${choice.padEnd(18)} ${help}`),
  '--revoked: the credential points to the revoked entry of the sandbox status list (design.md §15)',
  `--tamper: ${Object.keys(WALLET_TAMPERS)
    .filter((t) => t !== 'origin')
    .join(', ')}`,
].join('\n');

export interface WalletCommandOptions {
  clock?: Clock;
  post?: FormPoster;
  /** how a signed link's request_uri is fetched; default over HTTP */
  fetchRequestObject?: RequestObjectFetcher;
}

/** The sandbox status list of the service a response_uri (`{api_url}/oid4vp/response/<id>`) belongs to. */
function statusListOf(responseUri: string): string {
  const at = responseUri.lastIndexOf(RESPONSE_PATH);
  return (at < 0 ? new URL(responseUri).origin : responseUri.slice(0, at)) + SANDBOX_STATUS_LIST_PATH;
}

/**
 * @example process.exitCode = await runWalletCommand(['present', link, '--persona', 'fr-adult-m'], io)
 */
export async function runWalletCommand(args: string[], io: CliIo, options: WalletCommandOptions = {}): Promise<number> {
  const [sub, link, ...rest] = args;
  if (sub !== 'present' || link === undefined || link.startsWith('--')) {
    io.err(USAGE);
    return 2;
  }
  const parsed = parseFlags(rest, { persona: true, tamper: true, encoding: true, credential: true, revoked: false });
  if (!parsed.ok) {
    io.err(`svc wallet: ${parsed.problem}\n${usageHint('wallet')}`);
    return 2;
  }
  const persona = findPersona(loadPersonas(), parsed.flags.get('persona'));
  if (!persona) {
    io.err(
      `svc wallet: --persona must be one of ${loadPersonas()
        .map((p) => p.id)
        .join(', ')}`,
    );
    return 2;
  }
  const tamper = parsed.flags.get('tamper');
  if (tamper !== undefined && (!isWalletTamper(tamper) || tamper === 'origin')) {
    io.err(`svc wallet: unknown --tamper ${JSON.stringify(tamper)}\n${usageHint('wallet')}`);
    return 2;
  }
  const encoding = parsed.flags.get('encoding') ?? 'json';
  if (encoding !== 'json' && encoding !== 'brackets') {
    io.err('svc wallet: --encoding must be json or brackets');
    return 2;
  }
  const credential = parsed.flags.get('credential');
  if (credential !== undefined && !isSandboxWalletChoice(credential)) {
    io.err(`svc wallet: --credential must be one of ${Object.keys(SANDBOX_CREDENTIALS).join(', ')}`);
    return 2;
  }
  const now = (options.clock ?? systemClock).now();
  let target: { responseUri: string; body: string };
  // A signed link (docs/design.md §16) is fetched once, verified, and answered with a JWE.
  let requestObject: Promise<string> | undefined;
  const fetchRequestObject: RequestObjectFetcher = (uri) =>
    (requestObject ??= (options.fetchRequestObject ?? fetchRequestObjectOverHttp)(uri));
  try {
    const request = isSignedLink(link) ? await readSignedRequest(link, fetchRequestObject) : parseWalletLink(link);
    const chosen = chooseCredential(askedByDcql(request.dcql_query), credential);
    const choice = credential ?? (chosen.kind === PID_SD_QUERY_ID ? 'pid-sd-jwt' : chosen.kind);
    target = await createDirectPost({
      link,
      fetchRequestObject,
      issuer: loadSandboxIssuer(),
      persona,
      now,
      encoding,
      credential: choice,
      statusList: statusListOf(request.response_uri),
      revoked: parsed.flags.has('revoked'),
      ...(tamper ? { tamper } : {}),
    });
    const issued: Record<string, unknown> =
      chosen.kind === PID_SD_QUERY_ID
        ? { ...personaPidClaims(persona, now) }
        : personaElements(chosen.kind, persona, now, SANDBOX_CREDENTIALS[choice].elements);
    const shown = elementsToDisclose(chosen, Object.keys(issued));
    const disclosed = Object.fromEntries(shown.filter((e) => e in issued).map((e) => [e, issued[e]]));
    io.out(`presenting ${chosen.kind} as ${chosen.queryId}, disclosing ${JSON.stringify(disclosed)}`);
  } catch (error) {
    if (error instanceof WalletLinkError) {
      io.err(`svc wallet: not a wallet link: ${error.message}`);
      return 2;
    }
    if (error instanceof CredentialChoiceError) {
      io.err(`svc wallet: ${error.message}`);
      return 2;
    }
    throw error;
  }
  const answer = await (options.post ?? postFormOverHttp)(target.responseUri, target.body);
  io.out(`POST ${target.responseUri} → ${answer.status} ${answer.body}`);
  return answer.status === 200 ? 0 : 1;
}
