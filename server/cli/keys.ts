/**
 * `svc keys rotate|list`: the operator's side of ADULT_BLIND key rotation (design.md §5). It writes
 * to the store only; a running service picks the change up within a few seconds (crypto/blind.ts
 * re-reads its keys), so no restart is needed.
 *
 *   svc keys list                         kid, purpose, state, dates; never key material
 *   svc keys rotate [--purpose P] [--force]
 *     1st run: announce a next key (published second in the JWKS)
 *     2nd run, ≥ 1 h later: promote it; the old key is retired and dropped 300 s + 1 h later
 *     (private-attestation key sets, docs/adult-blind.md#private-attestations: 24 h later)
 *     --force (sandbox only): promote without waiting for the hour
 */
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import {
  listKeySummaries,
  rotateKeys,
  RETIRED_KEY_LIFETIME_MS,
  RETIRED_PRIVATE_KEY_LIFETIME_MS,
} from '../crypto/keys.ts';
import type { KeyPurpose, Store } from '../store/store.ts';
import { usageHint } from './usage-hint.ts';

export const KEYS_USAGE = `Usage:
  svc keys list
  svc keys rotate [--purpose attestation|session|private-attestation] [--force]

rotate announces a next key; run it again once the key has been published for an hour to make
it the signing key (the old one stays published ${RETIRED_KEY_LIFETIME_MS / 1000} s more;
a private-attestation key set ${RETIRED_PRIVATE_KEY_LIFETIME_MS / 1000} s).
--force skips the hour (sandbox mode only).`;

export interface KeysCommandContext {
  config: Pick<Config, 'mode'>;
  store: Store;
  clock: Clock;
  out: (line: string) => void;
  err: (line: string) => void;
}

function iso(ms: number | null): string {
  return ms === null ? '-' : new Date(ms).toISOString();
}

function readPurpose(args: string[]): KeyPurpose | null {
  const i = args.indexOf('--purpose');
  const inline = args.find((a) => a.startsWith('--purpose='));
  const value = inline ? inline.slice('--purpose='.length) : i >= 0 ? args[i + 1] : 'attestation';
  return value === 'attestation' || value === 'session' || value === 'private-attestation' ? value : null;
}

/**
 * Runs `svc keys …` with `args` (what follows `keys`); returns the process exit code.
 *
 * @example
 * const code = await runKeysCommand(['rotate'], { config, store, clock: systemClock, out: console.log, err: console.error });
 */
export async function runKeysCommand(args: string[], context: KeysCommandContext): Promise<number> {
  const { store, clock, out, err } = context;
  const [sub, ...rest] = args;

  if (sub === 'list') {
    const keys = await listKeySummaries(store, clock.now());
    out(['KID'.padEnd(43), 'PURPOSE'.padEnd(19), 'STATE'.padEnd(7), 'CREATED'.padEnd(24), 'DROP AFTER'].join('  '));
    for (const k of keys)
      out(
        [k.kid.padEnd(43), k.purpose.padEnd(19), k.state.padEnd(7), iso(k.createdAt).padEnd(24), iso(k.dropAfter)].join(
          '  ',
        ),
      );
    return 0;
  }

  if (sub === 'rotate') {
    const unknown = rest.filter(
      (a, i) => !(a === '--force' || a === '--purpose' || a.startsWith('--purpose=') || rest[i - 1] === '--purpose'),
    );
    const purpose = readPurpose(rest);
    if (unknown.length > 0 || purpose === null) {
      err(
        `svc keys rotate: unexpected ${unknown.length > 0 ? `argument ${unknown[0]}` : 'purpose'}\n${usageHint('keys')}`,
      );
      return 2;
    }
    const force = rest.includes('--force');
    if (force && context.config.mode !== 'sandbox') {
      err('svc keys rotate: --force is only allowed in sandbox mode; partners may not have fetched the next key yet');
      return 2;
    }
    const result = await rotateKeys(store, purpose, clock.now(), { force });
    switch (result.action) {
      case 'created':
        out(`created ${purpose} key ${result.kid} (current: it signs now)`);
        return 0;
      case 'announced':
        out(`announced ${purpose} key ${result.kid} (next: published second)`);
        out(
          `run \`svc keys rotate${purpose === 'attestation' ? '' : ` --purpose ${purpose}`}\` again after ` +
            `${iso(result.promotableAt)} to make it the signing key`,
        );
        return 0;
      case 'promoted':
        out(`promoted ${purpose} key ${result.kid} (current: it signs now)`);
        if (result.retiredKid) out(`retired ${result.retiredKid}; it stays published until ${iso(result.dropAfter)}`);
        return 0;
      case 'waiting':
        err(
          `svc keys rotate: next ${purpose} key ${result.kid} was announced less than an hour ago; partners may not have it yet`,
        );
        err(
          `run again after ${iso(result.promotableAt)}${context.config.mode === 'sandbox' ? ', or add --force (sandbox)' : ''}`,
        );
        return 1;
    }
  }

  if (sub === undefined || sub === 'help' || sub === '--help') {
    err(KEYS_USAGE);
    return 0;
  }
  err(`svc keys: unknown subcommand ${JSON.stringify(sub)}\n${usageHint('keys')}`);
  return 2;
}
