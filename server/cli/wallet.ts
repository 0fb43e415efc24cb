/**
 * `svc wallet present '<av://… | openid4vp://…>' --persona <id> [--credential av|pid|mdl]
 * [--tamper <what>] [--encoding json|brackets]`: the sandbox wallet (test support, design.md §11,
 * §13) answers a wallet link as a phone wallet would, posting a sandbox persona's credential — the
 * proof of age, the EU PID or the mobile driving licence; default the first the link accepts — to
 * the link's response_uri over HTTP, disclosing only the elements the link asks. It prints the
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
  isWalletTamper,
  personaElements,
  WALLET_TAMPERS,
} from '../sandbox/wallet/sandbox-wallet.ts';
import { CREDENTIAL_KINDS, type CredentialKind } from '../wallet/credentials.ts';
import { parseWalletLink, WalletLinkError } from '../wallet/request.ts';
import { parseFlags } from './args.ts';
import type { CliIo } from './dispatch.ts';

const USAGE = [
  "Usage: svc wallet present '<av://… | openid4vp://…>' --persona <id> [--credential av|pid|mdl]",
  '                          [--tamper <what>] [--encoding json|brackets]',
  '',
  "The sandbox wallet presents a sandbox persona's credential to the link's response_uri:",
  'av (proof of age: isAdult), pid (EU PID: isAdult, isFrench, isEU) or mdl (mobile driving licence: the',
  'same, nationality permitting); default the first the link accepts. Only the elements asked are disclosed.',
  `--tamper: ${Object.keys(WALLET_TAMPERS)
    .filter((t) => t !== 'origin')
    .join(', ')}`,
].join('\n');

export interface WalletCommandOptions {
  clock?: Clock;
  post?: FormPoster;
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
  const parsed = parseFlags(rest, { persona: true, tamper: true, encoding: true, credential: true });
  if (!parsed.ok) {
    io.err(`svc wallet: ${parsed.problem}\n\n${USAGE}`);
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
    io.err(`svc wallet: unknown --tamper ${JSON.stringify(tamper)}\n\n${USAGE}`);
    return 2;
  }
  const encoding = parsed.flags.get('encoding') ?? 'json';
  if (encoding !== 'json' && encoding !== 'brackets') {
    io.err('svc wallet: --encoding must be json or brackets');
    return 2;
  }
  const credential = parsed.flags.get('credential');
  if (credential !== undefined && !CREDENTIAL_KINDS.some((kind) => kind === credential)) {
    io.err(`svc wallet: --credential must be one of ${CREDENTIAL_KINDS.join(', ')}`);
    return 2;
  }
  const now = (options.clock ?? systemClock).now();
  let target: { responseUri: string; body: string };
  try {
    const chosen = chooseCredential(askedByDcql(parseWalletLink(link).dcql_query), credential as CredentialKind);
    target = await createDirectPost({
      link,
      issuer: loadSandboxIssuer(),
      persona,
      now,
      encoding,
      credential: chosen.kind,
      ...(tamper ? { tamper } : {}),
    });
    const issued = personaElements(chosen.kind, persona, now);
    const disclosed = Object.fromEntries(chosen.elements.filter((e) => e in issued).map((e) => [e, issued[e]]));
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
