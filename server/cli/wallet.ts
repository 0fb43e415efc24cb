/**
 * `svc wallet present '<av://…>' --persona <id> [--tamper <what>] [--encoding json|brackets]`:
 * the sandbox wallet (test support, DESIGN §11) answers a wallet link as a phone wallet would,
 * posting a proof of age for a sandbox persona to the link's response_uri over HTTP. `--tamper`
 * breaks one thing on purpose, for QA; the verifier must then refuse it and the request stays
 * waiting. Only a sandbox service trusts the sandbox issuer. Needs no store.
 */
import { systemClock, type Clock } from '../clock.ts';
import { findPersona, loadPersonas } from '../sandbox/personas.ts';
import { postFormOverHttp, type FormPoster } from '../sandbox/phone-wallet.ts';
import { loadSandboxIssuer } from '../sandbox/wallet/sandbox-issuer.ts';
import { createDirectPost, isWalletTamper, WALLET_TAMPERS } from '../sandbox/wallet/sandbox-wallet.ts';
import { WalletLinkError } from '../wallet/request.ts';
import { parseFlags } from './args.ts';
import type { CliIo } from './dispatch.ts';

const USAGE = [
  "Usage: svc wallet present '<av://…>' --persona <id> [--tamper <what>] [--encoding json|brackets]",
  '',
  "The sandbox wallet presents a proof of age for a sandbox persona to the link's response_uri.",
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
  const parsed = parseFlags(rest, { persona: true, tamper: true, encoding: true });
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
  let target: { responseUri: string; body: string };
  try {
    target = await createDirectPost({
      link,
      issuer: loadSandboxIssuer(),
      persona,
      now: (options.clock ?? systemClock).now(),
      encoding,
      ...(tamper ? { tamper } : {}),
    });
  } catch (error) {
    if (error instanceof WalletLinkError) {
      io.err(`svc wallet: not a wallet link: ${error.message}`);
      return 2;
    }
    throw error;
  }
  const answer = await (options.post ?? postFormOverHttp)(target.responseUri, target.body);
  io.out(`POST ${target.responseUri} → ${answer.status} ${answer.body}`);
  return answer.status === 200 ? 0 : 1;
}
