/** What createApp needs, built once by main.ts (or by a test) and passed down explicitly. */
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { BlindCrypto } from './crypto/blind.ts';
import type { ResultReaderKeys } from './crypto/result-reader.ts';
import type { LongPollGate } from './limits/long-polls.ts';
import type { RelyingParty } from './providers/relying-party.ts';
import type { Store } from './store/store.ts';
import type { Telemetry } from './telemetry/telemetry.ts';
import type { AccessCertificate, StatusChecker, WalletTrust } from './wallet/index.ts';

export interface AppDeps {
  config: Config;
  store: Store;
  clock: Clock;
  /** raw bytes of the nullifier HMAC key (design.md §5) */
  nullifierKey: Buffer;
  /** what opens the results of partner-created requests (crypto/result-reader.ts) */
  resultReader: ResultReaderKeys;
  blind: BlindCrypto;
  /** caps on concurrent long polls, per address (shared through the store) and per instance (limits/long-polls.ts) */
  longPolls: LongPollGate;
  /** the EUDI wallet path (design.md §11, domain/wallet.ts) */
  wallet: WalletDeps;
  /** the OpenID Connect relying party of the identity providers (design.md §12, providers/) */
  relyingParty: RelyingParty;
  /**
   * ms since the epoch of the last `svc store restore` (docs/operations.md#backups-and-restores);
   * 0 or absent: never restored. Partner signatures made before it are refused.
   */
  restoredAt?: number;
  /** metrics and traces (design.md §17, telemetry/); absent: the app observes nothing */
  telemetry?: Telemetry;
}

export interface WalletDeps {
  /** trusted IACA roots; `enabled` false in production without SVC_WALLET_TRUST (the path is not offered) */
  trust: WalletTrust;
  /** service secret that seals each request's HPKE private key in the store */
  sealingSecret: string;
  /** the credentials' status lists under SVC_WALLET_STATUS (design.md §15, wallet/trust/status-list.ts) */
  status: StatusChecker;
  /** the access certificate that signs wallet requests (docs/design.md §16); null or absent: requests stay unsigned */
  access?: AccessCertificate | null;
}
