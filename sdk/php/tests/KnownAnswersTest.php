<?php

declare(strict_types=1);

namespace Svc\PartnerSdk\Tests;

use PHPUnit\Framework\TestCase;
use Svc\PartnerSdk\Attestation;
use Svc\PartnerSdk\Signing;

/** The HMAC worked example (fixtures/hmac/), RFC 8037 A.4, RFC 9578's type 2 vectors. */
final class KnownAnswersTest extends TestCase
{
    public function testSigningReproducesTheWorkedExampleStepByStep(): void
    {
        $w = Fixtures::json('hmac/worked-example.json');
        self::assertSame($w['body_hash'], Signing::hashBody($w['body']));
        $canonical = Signing::canonicalString($w['body_hash'], $w['timestamp'], $w['partner_id'], $w['nonce']);
        self::assertSame($w['canonical'], $canonical);
        self::assertSame($w['signature'], Signing::computeSignature($w['secret'], $canonical));
        self::assertSame([
            'Content-Type' => 'application/json',
            'X-Partner-ID' => 'pk_test_demo',
            'X-Partner-Timestamp' => '1767225600',
            'X-Partner-Nonce' => $w['nonce'],
            'X-Partner-Signature' => $w['signature'],
        ], Signing::signRequest($w['partner_id'], $w['secret'], $w['body'], (int) $w['timestamp'], $w['nonce']));
    }

    public function testEachCommonMistakeGivesTheSignatureTheFixtureListsNotTheRightOne(): void
    {
        $w = Fixtures::json('hmac/worked-example.json');
        foreach (['partner_id_in_body', 'body_reserialised'] as $name) {
            $m = $w['mistakes'][$name];
            self::assertSame($m['body_hash'], Signing::hashBody($m['body']));
            $canonical = Signing::canonicalString($m['body_hash'], $w['timestamp'], $w['partner_id'], $w['nonce']);
            self::assertSame($m['signature'], Signing::computeSignature($w['secret'], $canonical));
        }
        $order = $w['mistakes']['wrong_canonical_order'];
        self::assertSame($order['signature'], Signing::computeSignature($w['secret'], $order['canonical']));
        $textKeyed = Fixtures::b64url(hash_hmac('sha256', $w['canonical'], $w['secret'], true));
        self::assertSame($w['mistakes']['secret_not_decoded']['signature'], $textKeyed);
    }

    public function testAFreshSignatureHasAUuidNonce(): void
    {
        $headers = Signing::signRequest('pk_test_demo', 'BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc=', '');
        self::assertMatchesRegularExpression('/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/', $headers['X-Partner-Nonce']);
        self::assertSame(43, strlen($headers['X-Partner-Signature']));
    }

    public function testRfc8037A4SignatureVerifiesAndAFlippedBitDoesNot(): void
    {
        $v = Fixtures::json('attestation/rfc8037.json');
        [$header, $payload] = Attestation::verifyCompactEd25519($v['jws'], $v['publicJwk']);
        self::assertSame(['alg' => 'EdDSA'], $header);
        self::assertSame($v['payload'], $payload);
        [$head, $body, $sig] = explode('.', $v['jws']);
        $raw = Fixtures::unb64url($sig);
        $raw[0] = chr(ord($raw[0]) ^ 1);
        self::assertSame('BAD_SIGNATURE', Fixtures::refusal(
            fn () => Attestation::verifyCompactEd25519("{$head}.{$body}." . Fixtures::b64url($raw), $v['publicJwk']),
        ));
    }

    /** @return array{0: array<string, mixed>, 1: string, 2: string} */
    private static function vector(): array
    {
        $v = Fixtures::json('private-attestation/rfc9578-type2.json')[4];
        $challenge = (string) hex2bin($v['token_challenge']);
        $token = (string) hex2bin($v['token']);
        $keys = ['issuer_name' => 'issuer.example', 'keys' => [[
            'token_type' => 2,
            'token_key_id' => Fixtures::b64url(substr($token, 66, 32)),
            'public_key' => Fixtures::b64url((string) hex2bin($v['pkS'])),
            'scope_mask' => 1,
            'epoch' => '2024-06-01',
        ]]];
        $metadata = Fixtures::b64url('{"scope_mask":1,"epoch":"2024-06-01"}');
        return [$keys, substr($challenge, 19, 32), Fixtures::b64url($token) . '.' . $metadata];
    }

    public function testRfc9578Type2VectorTokenIsAcceptedForItsIssuerAndContext(): void
    {
        [$keys, $context, $attestation] = self::vector();
        $v = Fixtures::json('private-attestation/rfc9578-type2.json')[4];
        self::assertSame($v['token_challenge'], bin2hex(Attestation::serializeTokenChallenge('issuer.example', $context)));
        $result = Attestation::verifyPrivateAttestation($attestation, $context, $keys);
        self::assertTrue($result->adult);
        self::assertSame(1, $result->scopeMask);
        self::assertSame('2024-06-01', $result->epoch);
        // the same context as 43 base64url characters
        self::assertTrue(Attestation::verifyPrivateAttestation($attestation, Fixtures::b64url($context), $keys)->adult);
    }

    public function testRfc9578VectorTokenIsRefusedForAnotherContextOrATouchedSignature(): void
    {
        [$keys, $context, $attestation] = self::vector();
        self::assertSame('WRONG_CONTEXT', Fixtures::refusal(fn () => Attestation::verifyPrivateAttestation($attestation, random_bytes(32), $keys)));
        [$tokenPart, $metadata] = explode('.', $attestation);
        $token = Fixtures::unb64url($tokenPart);
        $token[strlen($token) - 1] = chr(ord($token[strlen($token) - 1]) ^ 1);
        self::assertSame('BAD_SIGNATURE', Fixtures::refusal(
            fn () => Attestation::verifyPrivateAttestation(Fixtures::b64url($token) . '.' . $metadata, $context, $keys),
        ));
    }

    public function testRfc9578ChallengesWithoutOriginInfoAreReproduced(): void
    {
        $checked = 0;
        foreach (Fixtures::json('private-attestation/rfc9578-type2.json') as $v) {
            if (!str_ends_with($v['token_challenge'], '0000')) {
                continue;
            }
            $challenge = (string) hex2bin($v['token_challenge']);
            $context = substr($challenge, 19, ord($challenge[18]));
            self::assertSame($challenge, Attestation::serializeTokenChallenge('issuer.example', $context));
            $checked++;
        }
        self::assertGreaterThanOrEqual(2, $checked);
    }
}
