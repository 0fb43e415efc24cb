/** What createApp needs, built once by main.ts (or by a test) and passed down explicitly. */
import type { Persona, SessionClaims } from '../src/protocol/api.ts';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { ResultReaderKeys } from './crypto/result-reader.ts';
import type { LongPollGate } from './limits/long-polls.ts';
import type { RelyingParty } from './providers/relying-party.ts';
import type { Store } from './store/store.ts';
import type { WalletTrust } from './wallet/index.ts';

/** A published key set (spec: Attestation public key set). */
export interface Jwks {
  keys: Array<{ kty: 'OKP'; crv: 'Ed25519'; kid: string; x: string; use: 'sig'; alg?: 'EdDSA' }>;
}

/**
 * ADULT_BLIND crypto (DESIGN §5), backed by signing keys in the store. Implemented in
 * `crypto/blind.ts`; the use cases in domain/ and the billing routes only call these four functions.
 */
export interface BlindCrypto {
  /** Signs a session token (300 s) for a billing session. */
  issueSessionToken(input: {
    appId: string;
    origin: string;
    scopeMask: number;
  }): Promise<{ token: string; claims: SessionClaims }>;
  /** Verifies signature, typ, aud and exp; throws ServiceError('SESSION_INVALID') otherwise. */
  verifySessionToken(token: string): Promise<SessionClaims>;
  /** Signs an attestation (300 s) with the current attestation key. */
  signAttestation(input: { appId: string; originHash: string; scopeMask: number; nullifier: string }): Promise<string>;
  /** The published attestation key set: signing key first, then next, then retired-but-live. */
  jwks(): Promise<Jwks>;
}

export interface AppDeps {
  config: Config;
  store: Store;
  clock: Clock;
  personas: readonly Persona[];
  /** raw bytes of the nullifier HMAC key (DESIGN §5) */
  nullifierKey: Buffer;
  /** what opens the results of partner-created requests (crypto/result-reader.ts) */
  resultReader: ResultReaderKeys;
  blind: BlindCrypto;
  /** caps on concurrent long polls, per address (shared through the store) and per instance (limits/long-polls.ts) */
  longPolls: LongPollGate;
  /** the EUDI wallet path (DESIGN §11, domain/wallet.ts) */
  wallet: WalletDeps;
  /** the OpenID Connect relying party of the identity providers (DESIGN §12, providers/) */
  relyingParty: RelyingParty;
}

export interface WalletDeps {
  /** trusted IACA roots; `enabled` false in production without SVC_WALLET_TRUST (the path is not offered) */
  trust: WalletTrust;
  /** service secret that seals each request's HPKE private key in the store */
  sealingSecret: string;
}
