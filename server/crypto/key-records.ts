/**
 * The signing keys as the key code reads and writes them, and what it needs of the store that
 * keeps them. The store owns the record (store/records.ts `SigningKeyRecord`); this is the same
 * shape, so crypto/ imports no store and any Store passes where a `KeyStore` is asked.
 */

/** private-attestation: a key set of RSA-2048 keys, one per scope mask (docs/adult-blind.md#private-attestations) */
export type KeyPurpose = 'attestation' | 'session' | 'private-attestation';

export interface SigningKeyRecord {
  kid: string;
  purpose: KeyPurpose;
  /** next: announced, published; current: signs; retired: published until dropAfter, then gone */
  state: 'next' | 'current' | 'retired';
  /** private JWK as JSON text; never logged, never served */
  privateJwk: string;
  /** public JWK as JSON text */
  publicJwk: string;
  createdAt: number;
  /** retired keys: when they may be dropped (last attestation expiry + cache max-age) */
  dropAfter: number | null;
}

/** The store's signing-key methods (as properties, so a store whose records differ does not fit). */
export interface KeyStore {
  listKeys: (purpose: KeyPurpose) => Promise<SigningKeyRecord[]>;
  putKey: (key: SigningKeyRecord) => Promise<void>;
  /** several changes in one atomic step: a rotation never leaves zero or two current keys */
  updateKeys: (changes: { put?: SigningKeyRecord[]; drop?: string[] }) => Promise<void>;
}
