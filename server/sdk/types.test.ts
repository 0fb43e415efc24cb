import { describe, expect, expectTypeOf, it } from 'vitest';
import type * as Protocol from '../../src/protocol/wire.ts';
import { HEADERS, PREFIX } from '../../src/protocol/wire.ts';
import * as ProtocolScopes from '../../src/protocol/scopes.ts';
import { findScopeProblem, SCOPE_FIELD, SCOPES, WALLET_SCOPES } from './scopes.ts';
import {
  BILLING_SCOPES,
  GRANT_CODE_PREFIX,
  SVC_HEADERS,
  type BillingScope,
  type BillingSessionCreated,
} from './types.ts';
import type {
  ExchangeResponse,
  IntrospectResponse,
  PartnerVerifyRequestCreated,
  Scope,
  VerifyStatus,
} from './types.ts';

describe('SDK wire types', () => {
  it("are the protocol's own, copied so that the SDK stands alone (checked by tsc -p server)", () => {
    expectTypeOf<Scope>().toEqualTypeOf<ProtocolScopes.Scope>();
    expectTypeOf<BillingScope>().toEqualTypeOf<ProtocolScopes.BlindScope>();
    expectTypeOf<ExchangeResponse>().toEqualTypeOf<Protocol.ExchangeResponse>();
    expectTypeOf<IntrospectResponse>().toEqualTypeOf<Protocol.IntrospectResponse>();
    expectTypeOf<VerifyStatus>().toEqualTypeOf<Protocol.VerifyStatus>();
    expectTypeOf<PartnerVerifyRequestCreated>().toEqualTypeOf<Protocol.PartnerVerifyRequestCreated>();
    expectTypeOf<BillingSessionCreated>().toEqualTypeOf<Protocol.BillingSessionCreated>();
  });

  it("copies the protocol's header names, grant prefix and scope lists exactly", () => {
    for (const [name, value] of Object.entries(SVC_HEADERS)) expect(value).toBe(HEADERS[name as keyof typeof HEADERS]);
    expect(GRANT_CODE_PREFIX).toBe(PREFIX.grant);
    expect(SCOPES).toEqual(ProtocolScopes.SCOPES);
    expect(WALLET_SCOPES).toEqual(ProtocolScopes.WALLET_SCOPES);
    expect(BILLING_SCOPES).toEqual(ProtocolScopes.BLIND_SCOPES);
  });

  it("copies the protocol's scope → field rule exactly", () => {
    expect(SCOPE_FIELD).toEqual(ProtocolScopes.SCOPE_FIELD);
  });

  it('finds the same problem as the protocol in every scope list of up to three names', () => {
    const names = [...SCOPES, 'isOld'];
    const lists: string[][] = [[]];
    for (const a of names) {
      lists.push([a]);
      for (const b of names) {
        lists.push([a, b]);
        for (const c of names) lists.push([a, b, c]);
      }
    }
    for (const list of lists) {
      for (const clientProofMode of [false, true]) {
        const expected = ProtocolScopes.findScopeProblem(list, clientProofMode);
        expect(findScopeProblem(list, clientProofMode), `${list.join(',')} ${clientProofMode}`).toBe(expected);
      }
    }
  });
});
