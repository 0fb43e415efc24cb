<?php

declare(strict_types=1);

namespace Svc\PartnerSdk\Tests;

use PHPUnit\Framework\TestCase;
use Svc\PartnerSdk\PartnerClient;
use Svc\PartnerSdk\SvcException;
use Svc\PartnerSdk\Transport\Response;

/** The retry rules of docs/partner-api.md#the-partner-sdk-serversdk (injected sleep: nothing waits). */
final class RetryTest extends TestCase
{
    private const SECRET = 'BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc=';
    /** @var list<float> */
    private array $sleeps = [];

    private function client(ScriptedTransport $transport): PartnerClient
    {
        return new PartnerClient(
            'http://api.example',
            'pk_test_demo',
            self::SECRET,
            transport: $transport,
            sleep: function (float $s): void {
                $this->sleeps[] = $s;
            },
            random: static fn (): float => 0.5,
        );
    }

    private static function answer(int $status, string $body, array $headers = []): Response
    {
        return new Response($status, ['content-type' => 'application/json', 'x-svc-cid' => 'cid-1', ...$headers], $body);
    }

    public function testA429IsRetriedAfterItsRetryAfterAndThenSucceeds(): void
    {
        $t = new ScriptedTransport([self::answer(429, '{"error":"Too many requests","message":"x"}', ['retry-after' => '2']), self::answer(200, '{"active":false}')]);
        self::assertSame(['active' => false], $this->client($t)->introspect('p_x'));
        self::assertSame([2.0], $this->sleeps);
        self::assertNotSame($t->seen[0]['headers']['X-Partner-Nonce'], $t->seen[1]['headers']['X-Partner-Nonce']);
    }

    public function testARetryAfterBeyondAMinuteFailsAtOnceAndReportsIt(): void
    {
        $t = new ScriptedTransport([self::answer(429, '{"error":"Too many requests","message":"x"}', ['retry-after' => '120'])]);
        try {
            $this->client($t)->introspect('p_x');
            self::fail('no exception');
        } catch (SvcException $e) {
            self::assertSame(['Too many requests', 429, 120, 1, 'cid-1'], [$e->errorCode, $e->status, $e->retryAfter, $e->attempts, $e->cid]);
            self::assertSame('Too many requests', $e->getCode());
        }
        self::assertSame([], $this->sleeps);
    }

    public function testFiveHundredsBackOffOneThenTwoSecondsAndGiveUpAfterThreeAttempts(): void
    {
        $fail = self::answer(500, '{"error":"INTERNAL_ERROR","message":"x"}');
        $t = new ScriptedTransport([$fail, $fail, $fail]);
        self::assertSame('INTERNAL_ERROR', Fixtures::refusal(fn () => $this->client($t)->introspect('p_x')));
        self::assertSame([1.0, 2.0], $this->sleeps);
        self::assertCount(3, $t->seen);
    }

    public function testFourHundredsAreNeverRetried(): void
    {
        foreach ([400, 401, 403] as $status) {
            $t = new ScriptedTransport([self::answer($status, '{"error":"INVALID_REQUEST","message":"no"}')]);
            self::assertSame('INVALID_REQUEST', Fixtures::refusal(fn () => $this->client($t)->introspect('p_x')));
            self::assertCount(1, $t->seen);
        }
        self::assertSame([], $this->sleeps);
    }

    public function testNoAnswerIsANetworkErrorAfterThreeAttempts(): void
    {
        $t = new ScriptedTransport([null, null, null]);
        try {
            $this->client($t)->introspect('p_x');
            self::fail('no exception');
        } catch (SvcException $e) {
            self::assertSame(['NETWORK_ERROR', 0, 3, true], [$e->errorCode, $e->status, $e->attempts, $e->isRetryable()]);
        }
    }

    public function testA2xxThatIsNotJsonIsInvalidResponse(): void
    {
        $t = new ScriptedTransport([new Response(200, [], '<html>proxy</html>')]);
        self::assertSame('INVALID_RESPONSE', Fixtures::refusal(fn () => $this->client($t)->introspect('p_x')));
    }

    public function testAGetSignsTheEmptyBodyAndSendsNoContentType(): void
    {
        $t = new ScriptedTransport([self::answer(200, '{"status":"pending","expires_at":1}')]);
        $this->client($t)->getVerifyStatus('abc/def');
        self::assertSame('GET', $t->seen[0]['method']);
        self::assertNull($t->seen[0]['body']);
        self::assertArrayNotHasKey('Content-Type', $t->seen[0]['headers']);
        self::assertStringEndsWith('/api/partner/verify-status/abc%2Fdef', $t->seen[0]['url']);
    }

    public function testExchangeKeepsOneIdempotencyKeyAcrossItsRetriesAndSendsTheExactBody(): void
    {
        $t = new ScriptedTransport([self::answer(503, '{"error":"SERVICE_UNAVAILABLE","message":"x"}', ['retry-after' => '1']), self::answer(200, '{"pass_token":"p_1"}')]);
        $this->client($t)->exchange('g_abc');
        self::assertSame($t->seen[0]['headers']['Idempotency-Key'], $t->seen[1]['headers']['Idempotency-Key']);
        self::assertSame('{"grant_code":"g_abc"}', $t->seen[0]['body']);
        self::assertSame('{}', (function () {
            $t = new ScriptedTransport([self::answer(201, '{"request_id":"r"}')]);
            $this->client($t)->createVerifyRequest();
            return $t->seen[0]['body'];
        })());
    }

    public function testTheClientRefusesASecretThatIsNotBase64AndNeverShowsItsSecret(): void
    {
        $this->expectException(\InvalidArgumentException::class);
        try {
            self::assertStringNotContainsString(self::SECRET, print_r(new PartnerClient('http://x.example', 'pk_test_demo', self::SECRET), true));
        } finally {
            new PartnerClient('http://x.example', 'pk_test_demo', 'not a secret!');
        }
    }
}
