<?php

declare(strict_types=1);

namespace Svc\PartnerSdk\Tests;

use PHPUnit\Framework\TestCase;
use Svc\PartnerSdk\Attestation;
use Svc\PartnerSdk\AttestationKeys;
use Svc\PartnerSdk\PartnerClient;
use Svc\PartnerSdk\SvcException;

/** The SDK, with its curl transport, against the running service the harness started (scripts/sdk-polyglot.test.ts). */
final class LiveTest extends TestCase
{
    /** @var array<string, mixed> */
    private array $live;

    protected function setUp(): void
    {
        $this->live = Fixtures::live();
    }

    private function client(string $which, array $options = []): PartnerClient
    {
        return new PartnerClient($this->live['api_url'], $this->live[$which]['partner_id'], $this->live[$which]['secret'], ...$options);
    }

    public function testAStandardGrantIsExchangedOnceAndItsPassTokenIntrospected(): void
    {
        $svc = $this->client('standard');
        $code = $this->live['grant_codes']['php'];
        $grant = $svc->exchange($code, 'php-order-1');
        self::assertSame(['Bearer', true, ['isAdult']], [$grant['token_type'], $grant['age_over_18'], $grant['scopes']]);
        self::assertSame($grant['pass_token'], $svc->exchange($code, 'php-order-1')['pass_token']);
        $state = $svc->introspect($grant['pass_token']);
        self::assertSame([true, 'age_verification', true], [$state['active'], $state['scope'], $state['attributes']['age_over_18']]);
        self::assertSame(['active' => false], $svc->introspect('p_' . str_repeat('x', 40)));
        try {
            $svc->exchange($code);
            self::fail('a spent grant was exchanged');
        } catch (SvcException $e) {
            self::assertSame(['GRANT_INVALID', 401, 1], [$e->errorCode, $e->status, $e->attempts]);
            self::assertNotEmpty($e->cid);
        }
    }

    public function testAWrongSecretIsRefusedWithInvalidSignatureAndNotRetried(): void
    {
        $svc = new PartnerClient($this->live['api_url'], $this->live['standard']['partner_id'], base64_encode(str_repeat("\x01", 32)));
        try {
            $svc->introspect('p_whatever');
            self::fail('a wrong secret was accepted');
        } catch (SvcException $e) {
            self::assertSame(['INVALID_SIGNATURE', 401, 1, false], [$e->errorCode, $e->status, $e->attempts, $e->isRetryable()]);
        }
    }

    public function testABillingSessionIsOpenedForTheRegisteredOriginAndRefusedForAnother(): void
    {
        $session = $this->client('blind')->createBillingSession($this->live['origin'], ['isAdult']);
        self::assertSame(300, $session->expiresIn);
        self::assertGreaterThan(20, strlen($session->token));
        self::assertSame('ORIGIN_NOT_ALLOWED', Fixtures::refusal(fn () => $this->client('blind')->createBillingSession('https://elsewhere.example')));
        self::assertSame('FORBIDDEN_RAIL', Fixtures::refusal(fn () => $this->client('standard')->createBillingSession($this->live['origin'])));
    }

    public function testAPartnerStartedRequestIsCreatedAndItsStatusRead(): void
    {
        $svc = $this->client('standard');
        $created = $svc->createVerifyRequest(['isAdult']);
        self::assertStringStartsWith('http', $created['deep_link']);
        self::assertSame('pending', $svc->getVerifyStatus($created['request_id'])['status']);
    }

    public function testTheServicesJwsAttestationVerifiesAgainstItsPublishedKeys(): void
    {
        $jws = $this->live['jws'];
        $result = Attestation::verifyAttestation($jws['attestation'], Attestation::fetchAttestationKeys($this->live['api_url']), $jws['app_id'], $jws['origin']);
        self::assertTrue($result->adult);
        self::assertGreaterThan(time(), $result->exp);
    }

    public function testAttestationKeysFetchOnceAndAgainForAnUnknownKidAtMostEvery30Seconds(): void
    {
        ['attestation' => $token, 'app_id' => $app, 'origin' => $origin] = $this->live['jws'];
        $now = 1000.0;
        $keys = new AttestationKeys($this->live['api_url'], static function () use (&$now): float {
            return $now;
        });
        self::assertTrue(Attestation::verifyAttestation($token, $keys, $app, $origin)->adult);
        self::assertTrue(Attestation::verifyAttestation($token, $keys, $app, $origin)->adult);
        self::assertSame(1, $keys->fetches);
        [$head, $body, $sig] = explode('.', $token);
        $header = json_decode(Fixtures::unb64url($head), true);
        $forged = Fixtures::b64url(json_encode(['kid' => 'announced-later'] + $header)) . ".{$body}.{$sig}";
        $now += 10;
        self::assertSame('UNKNOWN_KEY', Fixtures::refusal(fn () => Attestation::verifyAttestation($forged, $keys, $app, $origin)));
        self::assertSame(1, $keys->fetches);
        $now += 30;
        self::assertSame('UNKNOWN_KEY', Fixtures::refusal(fn () => Attestation::verifyAttestation($forged, $keys, $app, $origin)));
        self::assertSame(2, $keys->fetches);
        $now += 3600;
        Attestation::verifyAttestation($token, $keys, $app, $origin);
        self::assertSame(3, $keys->fetches);
    }

    public function testEachForgedJwsAttestationIsRefusedWithItsCode(): void
    {
        ['attestation' => $token, 'app_id' => $app, 'origin' => $origin] = $this->live['jws'];
        $keys = Attestation::fetchAttestationKeys($this->live['api_url']);
        [$head, $body, $sig] = explode('.', $token);
        $check = fn (string $t, string $a = '', string $o = '', ?float $now = null) => Fixtures::refusal(
            fn () => Attestation::verifyAttestation($t, $keys, $a === '' ? $app : $a, $o === '' ? $origin : $o, $now),
        );
        $touched = Fixtures::unb64url($sig);
        $touched[5] = chr(ord($touched[5]) ^ 1);
        self::assertSame('BAD_SIGNATURE', $check("{$head}.{$body}." . Fixtures::b64url($touched)));
        $claims = json_decode(Fixtures::unb64url($body), true);
        self::assertSame('BAD_SIGNATURE', $check("{$head}." . Fixtures::b64url(json_encode(['scope_mask' => 15] + $claims)) . ".{$sig}"));
        self::assertSame('WRONG_APP', $check($token, 'app_blind_club'));
        self::assertSame('WRONG_ORIGIN', $check($token, '', 'http://127.0.0.1:8788'));
        $header = json_decode(Fixtures::unb64url($head), true);
        self::assertSame('UNKNOWN_KEY', $check(Fixtures::b64url(json_encode(['kid' => 'not-a-published-kid'] + $header)) . ".{$body}.{$sig}"));
        self::assertSame('EXPIRED', $check($token, '', '', (float) $claims['exp'] + 1));
        self::assertSame('MALFORMED', $check('a.b'));
    }

    public function testThePrivateAttestationVerifiesOnceThenItsContextIsReused(): void
    {
        ['attestation' => $attestation, 'redemption_context' => $context] = $this->live['private'];
        $keys = Attestation::fetchPrivateAttestationKeys($this->live['api_url']);
        $used = [];
        $consume = static function (string $c) use (&$used): bool {
            if (isset($used[$c])) {
                return false;
            }
            $used[$c] = true;
            return true;
        };
        $result = Attestation::verifyPrivateAttestation($attestation, $context, $keys, $consume);
        self::assertSame([true, 1], [$result->adult, $result->scopeMask]);
        self::assertSame([$context], array_keys($used));
        self::assertSame('REUSED', Fixtures::refusal(fn () => Attestation::verifyPrivateAttestation($attestation, $context, $keys, $consume)));
    }

    public function testEachForgedPrivateAttestationIsRefusedBeforeItsContextIsUsed(): void
    {
        ['attestation' => $attestation, 'redemption_context' => $context] = $this->live['private'];
        $keys = Attestation::fetchPrivateAttestationKeys($this->live['api_url']);
        [$tokenPart, $metadata] = explode('.', $attestation);
        $token = Fixtures::unb64url($tokenPart);
        $epoch = json_decode(Fixtures::unb64url($metadata), true)['epoch'];
        $consumed = [];
        $consume = static function (string $c) use (&$consumed): bool {
            $consumed[] = $c;
            return true;
        };
        $meta = static fn (array $v): string => Fixtures::b64url(json_encode($v));
        $check = fn (string $a, ?string $ctx = null) => Fixtures::refusal(
            fn () => Attestation::verifyPrivateAttestation($a, $ctx ?? $context, $keys, $consume),
        );
        self::assertSame('WRONG_CONTEXT', $check($attestation, random_bytes(32)));
        self::assertSame('WRONG_METADATA', $check("{$tokenPart}." . $meta(['scope_mask' => 3, 'epoch' => $epoch])));
        self::assertSame('WRONG_METADATA', $check("{$tokenPart}." . $meta(['scope_mask' => 1, 'epoch' => '2020-01-01'])));
        self::assertSame('MALFORMED', $check("{$tokenPart}." . $meta(['scope_mask' => 1, 'epoch' => $epoch, 'extra' => 1])));
        self::assertSame('UNKNOWN_KEY', $check(Fixtures::b64url(substr($token, 0, 66) . random_bytes(32) . substr($token, 98)) . ".{$metadata}"));
        $mask3 = current(array_filter($keys['keys'], static fn (array $k): bool => ($k['state'] ?? '') === 'current' && $k['scope_mask'] === 3));
        $switched = substr($token, 0, 66) . Fixtures::unb64url($mask3['token_key_id']) . substr($token, 98);
        self::assertSame('BAD_SIGNATURE', $check(Fixtures::b64url($switched) . '.' . $meta(['scope_mask' => 3, 'epoch' => $mask3['epoch']])));
        $touched = $token;
        $touched[strlen($touched) - 1] = chr(ord($touched[strlen($touched) - 1]) ^ 1);
        self::assertSame('BAD_SIGNATURE', $check(Fixtures::b64url($touched) . ".{$metadata}"));
        self::assertSame('MALFORMED', $check($tokenPart));
        self::assertSame([], $consumed);
    }

    /** @group ratelimit */
    public function testARealFourTwentyNineIsRetriedAfterItsRetryAfterThenReportedWithIt(): void
    {
        $url = $this->live['api_url'] . '/api/billing/session';
        $context = stream_context_create(['http' => ['method' => 'POST', 'header' => "Content-Type: application/json\r\n", 'content' => '{}', 'ignore_errors' => true, 'timeout' => 5]]);
        for ($i = 0; $i < 40; $i++) { // the per-address limit (30 a minute) is counted before any header is read
            file_get_contents($url, false, $context);
            if (str_contains($http_response_header[0] ?? '', ' 429 ')) {
                break;
            }
        }
        $sleeps = [];
        $svc = $this->client('blind', ['sleep' => static function (float $s) use (&$sleeps): void {
            $sleeps[] = $s;
        }]);
        try {
            $svc->createBillingSession($this->live['origin']);
            self::fail('no 429');
        } catch (SvcException $e) {
            self::assertSame([429, 'Too many requests', 3], [$e->status, $e->errorCode, $e->attempts]);
            self::assertNotNull($e->retryAfter);
            self::assertGreaterThan(0, $e->retryAfter);
            self::assertLessThanOrEqual(60, $e->retryAfter);
        }
        self::assertCount(2, $sleeps);
        foreach ($sleeps as $s) {
            self::assertGreaterThan(0, $s);
            self::assertLessThanOrEqual(60, $s);
        }
    }
}
