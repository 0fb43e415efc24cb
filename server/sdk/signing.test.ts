import { describe, expect, it } from 'vitest';
import rfc4231 from '../../fixtures/hmac/rfc4231.json' with { type: 'json' };
import example from '../../fixtures/hmac/worked-example.json' with { type: 'json' };
import { canonicalString, computeSignature, hashBody, signRequest } from './signing.ts';

const toHex = (base64url: string) => Buffer.from(base64url, 'base64url').toString('hex');

describe('HMAC-SHA256 known answers (RFC 4231)', () => {
  it.each(rfc4231.cases)('matches test case $case with the key given as a base64 secret', (vector) => {
    const secret = Buffer.from(vector.key_hex, 'hex').toString('base64');
    expect(toHex(computeSignature(secret, Buffer.from(vector.data_hex, 'hex')))).toBe(vector.hmac_sha256_hex);
  });

  it('signs a text canonical string as its UTF-8 bytes', () => {
    const vector = rfc4231.cases.find((c) => c.case === 2)!;
    const text = Buffer.from(vector.data_hex, 'hex').toString('utf8');
    expect(toHex(computeSignature(Buffer.from('Jefe').toString('base64'), text))).toBe(vector.hmac_sha256_hex);
  });
});

describe('the worked signing example (design.md §9)', () => {
  it('hashes the exact body to the documented body hash', () => {
    expect(hashBody(example.body)).toBe(example.body_hash);
    expect(hashBody(Buffer.from(example.body, 'utf8'))).toBe(example.body_hash);
  });

  it('builds the canonical string as bodyHash.timestamp.partnerId.nonce', () => {
    expect(canonicalString(example.body_hash, example.timestamp, example.partner_id, example.nonce)).toBe(
      example.canonical,
    );
  });

  it('produces the documented signature', () => {
    expect(computeSignature(example.secret, example.canonical)).toBe(example.signature);
  });

  it('produces the documented headers through signRequest', () => {
    expect(
      signRequest({
        partnerId: example.partner_id,
        secret: example.secret,
        body: example.body,
        timestamp: Number(example.timestamp),
        nonce: example.nonce,
      }),
    ).toEqual({
      'Content-Type': 'application/json',
      'X-Partner-ID': example.partner_id,
      'X-Partner-Timestamp': example.timestamp,
      'X-Partner-Nonce': example.nonce,
      'X-Partner-Signature': example.signature,
    });
  });

  it('yields 43 base64url characters without padding', () => {
    expect(example.signature).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(signRequest({ partnerId: 'p', secret: example.secret, body: '' })['X-Partner-Signature']).toMatch(
      /^[A-Za-z0-9_-]{43}$/,
    );
  });

  it('documents the signature each common mistake produces, all different from the right one', () => {
    const { mistakes } = example;
    const undecodedKey = Buffer.from(example.secret, 'utf8').toString('base64');
    expect(computeSignature(undecodedKey, example.canonical)).toBe(mistakes.secret_not_decoded.signature);
    expect(hashBody(mistakes.partner_id_in_body.body)).toBe(mistakes.partner_id_in_body.body_hash);
    expect(
      computeSignature(
        example.secret,
        canonicalString(mistakes.partner_id_in_body.body_hash, example.timestamp, example.partner_id, example.nonce),
      ),
    ).toBe(mistakes.partner_id_in_body.signature);
    expect(computeSignature(example.secret, mistakes.wrong_canonical_order.canonical)).toBe(
      mistakes.wrong_canonical_order.signature,
    );
    expect(hashBody(mistakes.body_reserialised.body)).toBe(mistakes.body_reserialised.body_hash);
    expect(
      computeSignature(
        example.secret,
        canonicalString(mistakes.body_reserialised.body_hash, example.timestamp, example.partner_id, example.nonce),
      ),
    ).toBe(mistakes.body_reserialised.signature);
    const wrong = Object.values(mistakes).map((m) => m.signature);
    expect(new Set([...wrong, example.signature]).size).toBe(wrong.length + 1);
  });

  it('gives a fresh UUID v4 nonce and the current time when none are given', () => {
    const before = Math.floor(Date.now() / 1000);
    const headers = signRequest({ partnerId: 'pk_test_demo', secret: example.secret, body: '{}' });
    expect(headers['X-Partner-Nonce']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Number(headers['X-Partner-Timestamp'])).toBeGreaterThanOrEqual(before);
    expect(signRequest({ partnerId: 'pk_test_demo', secret: example.secret, body: '{}' })['X-Partner-Nonce']).not.toBe(
      headers['X-Partner-Nonce'],
    );
  });
});
