/** ADULT_BLIND crypto: session tokens, attestations, JWKS (DESIGN §5). Built in issue 4. */
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { BlindCrypto } from '../deps.ts';
import type { Store } from '../store/store.ts';

export async function createBlindCrypto(store: Store, clock: Clock, config: Config): Promise<BlindCrypto> {
  void store;
  void clock;
  void config;
  const notYet = async (): Promise<never> => {
    throw new Error('ADULT_BLIND crypto is not built yet');
  };
  return { issueSessionToken: notYet, verifySessionToken: notYet, signAttestation: notYet, jwks: notYet };
}
