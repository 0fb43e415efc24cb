/**
 * `svc`: the operator's command line (`npm run svc -- …` or bin/svc.mjs). One line per command;
 * each lives in server/cli/.
 */
import { runAccessCertCommand, runAccessCertCsr } from './cli/access-cert.ts';
import { runCli, type CliCommand } from './cli/dispatch.ts';
import { runKeysCommand } from './cli/keys.ts';
import { runMasterKeyCommand } from './cli/master-key.ts';
import { runPartnersCommand } from './cli/partners.ts';
import { runProvidersCommand } from './cli/providers.ts';
import { runStoreCommand } from './cli/store.ts';

const COMMANDS: Record<string, CliCommand> = {
  serve: { summary: 'run the service, as server/main.ts does', start: async () => void (await import('./main.ts')) },
  partners: {
    summary: 'add, list, update, remove, rotate-secret, disable or enable partners',
    run: runPartnersCommand,
  },
  providers: {
    summary: 'add, list, disable, enable or remove identity providers (OpenID Connect)',
    run: runProvidersCommand,
  },
  keys: { summary: 'list or rotate the ADULT_BLIND signing keys', run: runKeysCommand },
  'master-key': { summary: 'show or rotate the master key that seals secrets at rest', run: runMasterKeyCommand },
  store: {
    summary: 'copy partners, providers, keys and secrets into another store (SQLite → Redis)',
    run: (args, context) => runStoreCommand(args, context),
  },
  wallet: {
    summary:
      "sandbox wallet: present '<av://…>' --persona <id> [--tamper <what>] (test support); " +
      'access-cert csr|import|show: the certificate that signs wallet requests',
    start: async (args, io) => {
      const [sub, action, ...rest] = args;
      if (sub === 'access-cert' && action === 'csr') {
        process.exitCode = await runAccessCertCsr(rest, io);
      } else if (sub === 'access-cert') {
        // import and show work on the store, opened as for every store command.
        const command = { summary: '', run: runAccessCertCommand };
        process.exitCode = (await runCli({ 'access-cert': command }, ['access-cert', ...args.slice(1)], { io })) ?? 0;
      } else {
        // Loaded when asked for: the sandbox wallet is sandbox/'s, which `svc serve` never loads.
        const { runWalletCommand } = await import('./cli/wallet.ts');
        process.exitCode = await runWalletCommand(args, io);
      }
    },
  },
};

const code = await runCli(COMMANDS, process.argv.slice(2));
if (code !== null) process.exitCode = code;
