import { describe, expect, it } from 'vitest';
import type { Scope } from '../../src/protocol/scopes.ts';
import type { AppDeps } from '../deps.ts';
import { ServiceError } from '../errors.ts';
import type { ProviderRecord } from '../store/store.ts';
import { provingMethods, requireProvingMethod, type ProvableRequest } from './proving-methods.ts';

function provider(id: string, proves: Scope[], enabled = true): ProviderRecord {
  return {
    id,
    issuer: 'https://idp.example',
    clientId: 'svc',
    clientAuth: 'client_secret_basic',
    credential: 'secret',
    name: id,
    method: 'face_check',
    proves,
    enabled,
    createdAt: 0,
  };
}

function depsFor(mode: 'sandbox' | 'production', walletEnabled: boolean, providers: ProviderRecord[] = []) {
  return {
    config: { mode },
    wallet: { trust: { enabled: walletEnabled, anchors: [], refusedKeys: [] }, sealingSecret: '' },
    store: { listProviders: async () => providers },
  } as unknown as Pick<AppDeps, 'config' | 'wallet' | 'store'>;
}

const walletShaped: ProvableRequest = { scopes: ['isAdult'], clientProofMode: true, channel: 'widget' };

describe('provingMethods', () => {
  it('lists the wallet before the sandbox, in the order the phone page shows them', async () => {
    expect(await provingMethods(depsFor('sandbox', true), walletShaped)).toEqual(['eudi_wallet', 'sandbox']);
    expect(await provingMethods(depsFor('production', true), walletShaped)).toEqual(['eudi_wallet']);
  });

  it('offers the wallet only for client-proof loader requests among isAdult, isFrench and isEU, with wallet trust enabled', async () => {
    const production = depsFor('production', true);
    for (const scopes of [['isAdult'], ['isFrench'], ['isAdult', 'isFrench', 'isEU']] as const)
      expect(await provingMethods(production, { ...walletShaped, scopes: [...scopes] })).toEqual(['eudi_wallet']);
    for (const request of [
      { ...walletShaped, clientProofMode: false },
      { ...walletShaped, scopes: ['isAdult', 'isUnique'] as const },
      { ...walletShaped, scopes: ['isUnique'] as const },
      { ...walletShaped, channel: 'partner' as const },
    ]) {
      expect(await provingMethods(production, { ...request, scopes: [...request.scopes] })).toEqual([]);
    }
    expect(await provingMethods(depsFor('production', false), walletShaped)).toEqual([]);
  });

  it('lets the sandbox prove everything', async () => {
    const request: ProvableRequest = { scopes: ['isMale', 'isUnique'], clientProofMode: false, channel: 'partner' };
    expect(await provingMethods(depsFor('sandbox', true), request)).toEqual(['sandbox']);
  });

  it('counts each enabled provider whose proves covers every scope, between the wallet and the sandbox', async () => {
    const providers = [
      provider('idp_all', ['isAdult', 'isFrench', 'isEU']),
      provider('idp_age', ['isAdult']),
      provider('idp_off', ['isAdult', 'isFrench'], false),
    ];
    expect(await provingMethods(depsFor('sandbox', true, providers), walletShaped)).toEqual([
      'eudi_wallet',
      'idp_all',
      'idp_age',
      'sandbox',
    ]);
    const french: ProvableRequest = { scopes: ['isAdult', 'isFrench'], clientProofMode: false, channel: 'partner' };
    expect(await provingMethods(depsFor('production', true, providers), french)).toEqual(['idp_all']);
    await expect(
      requireProvingMethod(depsFor('production', true, providers), { ...french, scopes: ['isUnique'] }),
    ).rejects.toMatchObject({ code: 'NO_METHOD' });
  });

  it('sends a client-proof request with isUnique to a provider that proves it, never to the wallet (design.md §13)', async () => {
    const request: ProvableRequest = { ...walletShaped, scopes: ['isAdult', 'isUnique'] };
    const unique = [provider('idp_unique', ['isAdult', 'isUnique']), provider('idp_age', ['isAdult'])];
    expect(await provingMethods(depsFor('production', true, unique), request)).toEqual(['idp_unique']);
    expect(await requireProvingMethod(depsFor('production', true, unique), request)).toEqual(['idp_unique']);
    await expect(
      requireProvingMethod(depsFor('production', true, [provider('idp_age', ['isAdult'])]), request),
    ).rejects.toMatchObject({ code: 'NO_METHOD' });
  });

  it('refuses with NO_METHOD when none can, naming the request in the cause only', async () => {
    const request: ProvableRequest = { scopes: ['isFrench'], clientProofMode: false, channel: 'widget' };
    const refusal = requireProvingMethod(depsFor('production', true), request);
    await expect(refusal).rejects.toBeInstanceOf(ServiceError);
    await expect(refusal).rejects.toMatchObject({
      code: 'NO_METHOD',
      cause: 'no enabled method proves [isFrench] in app mode for a widget request',
    });
  });
});
