/**
 * `svc master-key status|rotate`: the master key that seals partner secrets, signing keys,
 * service secrets and identity providers' credentials at rest (crypto/master-key.ts). Login
 * states (minutes long) are sealed too but not counted or re-sealed: they lapse.
 *
 * Production, several instances: give every instance SVC_MASTER_KEY=<new> and
 * SVC_MASTER_KEY_PREVIOUS=<old> and restart them (they open both, seal with the new one), then run
 * `svc master-key rotate` once with the same environment, then drop SVC_MASTER_KEY_PREVIOUS.
 * Sandbox without SVC_MASTER_KEY: `rotate` makes a new key in the data folder's key file and
 * re-seals under it; restart a running sandbox service afterwards.
 */
import { quote } from '../rules/printable.ts';
import { pruneKeyFile, rotateKeyFile } from '../crypto/master-key.ts';
import { resealStore, sealedKeyIds } from '../store/sealed.ts';
import type { CommandContext } from './dispatch.ts';
import { usageHint } from './usage-hint.ts';

export const MASTER_KEY_USAGE = `Usage:
  svc master-key status    the current key id and how many stored values each key id sealed
  svc master-key rotate    re-seal every value under the current key

Production: set SVC_MASTER_KEY to the new key and SVC_MASTER_KEY_PREVIOUS to the old one on every
instance, restart them, run rotate once, then remove SVC_MASTER_KEY_PREVIOUS.
Sandbox without SVC_MASTER_KEY: rotate makes a new key in the data folder's master.key.`;

/**
 * @example await runMasterKeyCommand(['rotate'], context)
 */
export async function runMasterKeyCommand(args: string[], context: CommandContext): Promise<number> {
  const [sub, ...rest] = args;
  if (rest.length > 0) {
    context.err(`svc master-key ${sub}: unexpected argument ${JSON.stringify(rest[0])}\n${usageHint('master-key')}`);
    return 2;
  }
  if (sub === 'status') return status(context);
  if (sub === 'rotate') return rotate(context);
  if (sub === undefined || sub === 'help' || sub === '--help') {
    context.out(MASTER_KEY_USAGE);
    return 0;
  }
  context.err(`svc master-key: unknown subcommand ${quote(sub)}\n${usageHint('master-key')}`);
  return 2;
}

async function status(context: CommandContext): Promise<number> {
  const { keyring, inner } = context.sealing;
  context.out(
    `current master key: ${keyring.currentId}${keyring.ids.length > 1 ? ` (also opens ${keyring.ids.slice(1).join(', ')})` : ''}`,
  );
  const counts = await sealedKeyIds(inner, keyring);
  for (const [id, n] of Object.entries(counts))
    context.out(`  ${id}: ${n} value${n === 1 ? '' : 's'}${id === keyring.currentId ? ' (current)' : ''}`);
  return 0;
}

async function rotate(context: CommandContext): Promise<number> {
  const fromFile = context.config.masterKey === null;
  const { inner } = context.sealing;
  let keyring = context.sealing.keyring;
  if (fromFile) {
    keyring = rotateKeyFile(context.config.dataDir);
  } else if (keyring.ids.length === 1) {
    const counts = await sealedKeyIds(inner, keyring);
    if (Object.keys(counts).every((id) => id === keyring.currentId)) {
      context.err(
        'svc master-key rotate: every value is already sealed with SVC_MASTER_KEY; to rotate, set SVC_MASTER_KEY to a new key ' +
          'and SVC_MASTER_KEY_PREVIOUS to this one (openssl rand -base64 32)',
      );
      return 1;
    }
  }
  const report = await resealStore(inner, keyring);
  if (fromFile) pruneKeyFile(context.config.dataDir);
  context.out(
    `re-sealed ${report.resealed} value${report.resealed === 1 ? '' : 's'} under master key ${keyring.currentId}` +
      ` (${report.current} already were)`,
  );
  if (fromFile) context.out('Restart a running sandbox service: it still holds the old key.');
  return 0;
}
