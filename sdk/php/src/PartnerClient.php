<?php

declare(strict_types=1);

namespace Svc\PartnerSdk;

use Svc\PartnerSdk\Transport\CurlTransport;
use Svc\PartnerSdk\Transport\NetworkException;
use Svc\PartnerSdk\Transport\Transport;

/**
 * Signed calls to the partner API for one partner, with the retry rules of
 * docs/partner-api.md#the-partner-sdk-serversdk: 429, 5xx and no answer are retried, at most 3
 * attempts in all; Retry-After is honoured up to 60 s (beyond, the call fails at once), otherwise
 * 1 s then 2 s with ±20 % jitter (30 s cap); 400, 401 and 403 never. Each call serialises its
 * body once and signs exactly those bytes; every attempt is signed again with a fresh nonce.
 *
 *     $svc = new PartnerClient('https://api.example', getenv('SVC_PARTNER_ID'), getenv('SVC_PARTNER_SECRET'));
 *     $grant = $svc->exchange($grantCode); // ['pass_token' => …, 'age_over_18' => true, …]
 */
final class PartnerClient
{
    public const VERSION = '0.1.0';
    public const MAX_ATTEMPTS = 3;
    private const BASE_DELAY = 1.0;
    private const MAX_DELAY = 30.0;
    private const MAX_RETRY_AFTER = 60.0;
    private const JITTER = 0.2;

    public readonly string $apiUrl;
    public readonly string $appUrl;
    private readonly Transport $transport;
    /** @var callable(float): void */
    private $sleep;
    /** @var callable(): float */
    private $clock;
    /** @var callable(): float */
    private $random;
    /** @var null|callable(array{method: string, path: string, status: int, cid: ?string, attempt: int}): void */
    private $onResponse;
    private readonly int $maxAttempts;

    /**
     * @param null|callable(float): void $sleep  waits between retries (seconds); tests record instead
     * @param null|callable(): float     $clock  Unix seconds for the signature timestamp
     * @param null|callable(): float     $random jitter source in [0, 1)
     * @param null|callable(array{method: string, path: string, status: int, cid: ?string, attempt: int}): void $onResponse
     *        told about every answer (log the cid; never the body)
     */
    public function __construct(
        string $apiUrl,
        public readonly string $partnerId,
        #[\SensitiveParameter] private readonly string $secret,
        ?string $appUrl = null,
        ?Transport $transport = null,
        ?callable $sleep = null,
        ?callable $clock = null,
        ?callable $random = null,
        private readonly float $timeout = 10.0,
        int $maxAttempts = self::MAX_ATTEMPTS,
        ?callable $onResponse = null,
    ) {
        $this->apiUrl = self::baseUrl($apiUrl, 'apiUrl');
        $this->appUrl = $appUrl === null ? $this->apiUrl : self::baseUrl($appUrl, 'appUrl');
        if (preg_match('/^[A-Za-z0-9_]{1,64}$/', $partnerId) !== 1) {
            throw new \InvalidArgumentException('partnerId must be the Partner ID, e.g. pk_live_…');
        }
        $key = base64_decode(strtr($secret, '-_', '+/'), true);
        if (preg_match('/^[A-Za-z0-9+\/_-]+={0,2}$/', $secret) !== 1 || $key === false || strlen($key) < 16) {
            throw new \InvalidArgumentException('secret must be the base64 Partner Secret as issued');
        }
        $this->transport = $transport ?? new CurlTransport();
        $this->sleep = $sleep ?? static function (float $seconds): void {
            usleep((int) round($seconds * 1_000_000));
        };
        $this->clock = $clock ?? static fn (): float => microtime(true);
        $this->random = $random ?? static fn (): float => mt_rand() / (mt_getrandmax() + 1);
        $this->onResponse = $onResponse;
        $this->maxAttempts = max(1, min(self::MAX_ATTEMPTS, $maxAttempts));
    }

    public function __debugInfo(): array
    {
        return ['apiUrl' => $this->apiUrl, 'appUrl' => $this->appUrl, 'partnerId' => $this->partnerId];
    }

    /**
     * POST /v1/exchange: the pass token and attributes a grant code is worth (GRANT_INVALID
     * otherwise). An Idempotency-Key is always sent and kept across this call's retries.
     *
     * @return array<string, mixed>
     */
    public function exchange(string $grantCode, ?string $idempotencyKey = null): array
    {
        self::requireNonEmpty($grantCode, 'grantCode');
        return $this->request('POST', "{$this->apiUrl}/v1/exchange", ['grant_code' => $grantCode], [
            'Idempotency-Key' => $idempotencyKey ?? Signing::uuid4(),
        ]);
    }

    /**
     * POST /v1/introspect: ['active' => false] for an expired, unknown or foreign token.
     *
     * @return array<string, mixed>
     */
    public function introspect(string $passToken): array
    {
        self::requireNonEmpty($passToken, 'passToken');
        return $this->request('POST', "{$this->apiUrl}/v1/introspect", ['pass_token' => $passToken]);
    }

    /**
     * POST /api/partner/verify-request: a verification request started from the partner's server.
     *
     * @param null|list<string> $scopes
     * @return array<string, mixed>
     */
    public function createVerifyRequest(?array $scopes = null, ?bool $clientProofMode = null): array
    {
        $body = [];
        if ($scopes !== null) {
            $body['scopes'] = array_values($scopes);
        }
        if ($clientProofMode !== null) {
            $body['client_proof_mode'] = $clientProofMode;
        }
        return $this->request('POST', "{$this->appUrl}/api/partner/verify-request", $body);
    }

    /**
     * GET /api/partner/verify-status/{requestId}; poll at most once a second.
     *
     * @return array<string, mixed>
     */
    public function getVerifyStatus(string $requestId): array
    {
        self::requireNonEmpty($requestId, 'requestId');
        return $this->request('GET', "{$this->appUrl}/api/partner/verify-status/" . rawurlencode($requestId));
    }

    /**
     * POST {app_url}/api/billing/session (ADULT_BLIND): a fresh token for every page load, signed
     * like the exchange with the lower-case header names and the 32-hex nonce
     * docs/adult-blind.md#getting-a-session-token-every-page-load documents.
     *
     * @param null|list<string> $scopes default ['isAdult']
     */
    public function createBillingSession(string $origin, ?array $scopes = null): Session
    {
        $body = $scopes === null ? ['origin' => $origin] : ['origin' => $origin, 'scopes' => array_values($scopes)];
        $sign = function (string $text, int $timestamp): array {
            $signed = Signing::signRequest($this->partnerId, $this->secret, $text, $timestamp, bin2hex(random_bytes(16)));
            return array_change_key_case($signed, CASE_LOWER);
        };
        $created = $this->request('POST', "{$this->appUrl}/api/billing/session", $body, [], $sign, 201);
        if (!is_string($created['token'] ?? null) || !is_int($created['expires_in'] ?? null)) {
            throw new SvcException('INVALID_RESPONSE', '/api/billing/session answered without token and expires_in', 201);
        }
        return new Session($created['token'], $created['expires_in']);
    }

    /**
     * A signed call to any signed route, with the same signing and retry rules.
     *
     * @param array<string, mixed>|null $body serialised as JSON ({} when empty); a GET sends none and signs ''
     * @param array<string, string> $headers sent after the signature headers
     * @param null|callable(string, int): array<string, string> $sign
     * @return array<string, mixed>
     */
    public function request(
        string $method,
        string $url,
        ?array $body = null,
        array $headers = [],
        ?callable $sign = null,
        ?int $expectStatus = null,
    ): array {
        if ($method !== 'GET' && $method !== 'POST') {
            throw new \InvalidArgumentException('method must be GET or POST');
        }
        $path = (string) parse_url($url, PHP_URL_PATH);
        $text = $method === 'GET' ? '' : ($body === null || $body === []
            ? '{}'
            : json_encode($body, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_THROW_ON_ERROR));
        $sign ??= fn (string $t, int $ts): array => Signing::signRequest($this->partnerId, $this->secret, $t, $ts);
        for ($attempt = 1;; $attempt++) {
            $signed = $sign($text, (int) floor(($this->clock)()));
            if ($method === 'GET') {
                $signed = array_filter($signed, static fn ($name) => strtolower((string) $name) !== 'content-type', ARRAY_FILTER_USE_KEY);
            }
            try {
                $answer = $this->transport->send($method, $url, [...$signed, ...$headers], $method === 'GET' ? null : $text, $this->timeout);
            } catch (NetworkException $failure) {
                $error = new SvcException('NETWORK_ERROR', "{$path}: no answer ({$failure->getMessage()})", 0, null, null, $attempt);
                if ($attempt >= $this->maxAttempts) {
                    throw $error;
                }
                ($this->sleep)($this->retryDelay($attempt, null));
                continue;
            }
            $cid = $answer->header('x-svc-cid');
            if ($this->onResponse !== null) {
                ($this->onResponse)(['method' => $method, 'path' => $path, 'status' => $answer->status, 'cid' => $cid, 'attempt' => $attempt]);
            }
            $payload = self::decodeObject($answer->body);
            if ($answer->status >= 200 && $answer->status < 300) {
                if ($payload === null || ($expectStatus !== null && $answer->status !== $expectStatus)) {
                    throw new SvcException('INVALID_RESPONSE', "{$path} answered {$answer->status} without the JSON it documents", $answer->status, null, $cid, $attempt);
                }
                return $payload;
            }
            $retryAfter = self::parseRetryAfter($answer->header('retry-after'), ($this->clock)());
            $code = is_string($payload['error'] ?? null) ? $payload['error']
                : ($answer->status === 429 ? 'Too many requests' : ($answer->status >= 500 ? 'INTERNAL_ERROR' : 'INVALID_RESPONSE'));
            $message = is_string($payload['message'] ?? null) ? $payload['message'] : "{$path} answered HTTP {$answer->status}";
            $error = new SvcException($code, $message, $answer->status, $retryAfter === null ? null : (int) ceil($retryAfter), $cid, $attempt);
            if (!SvcException::isRetryableStatus($answer->status) || $attempt >= $this->maxAttempts) {
                throw $error;
            }
            $delay = $this->retryDelay($attempt, $retryAfter);
            if ($delay === null) {
                throw $error;
            }
            ($this->sleep)($delay);
        }
    }

    /** The wait before retry number $retry (1 for the first); null: do not retry. */
    public function retryDelay(int $retry, ?float $retryAfter): ?float
    {
        if ($retryAfter !== null) {
            return $retryAfter > self::MAX_RETRY_AFTER ? null : $retryAfter;
        }
        $jittered = self::BASE_DELAY * 2 ** ($retry - 1) * (1 - self::JITTER + 2 * self::JITTER * ($this->random)());
        return min(self::MAX_DELAY, $jittered);
    }

    /** Retry-After (delta seconds or an HTTP date) in seconds from $now; null when absent or unreadable. */
    public static function parseRetryAfter(?string $value, float $now): ?float
    {
        if ($value === null) {
            return null;
        }
        $text = trim($value);
        if (preg_match('/^\d{1,9}$/', $text) === 1) {
            return (float) $text;
        }
        if (preg_match('/^[A-Za-z]{3}, /', $text) !== 1) {
            return null;
        }
        $when = \DateTimeImmutable::createFromFormat(\DateTimeInterface::RFC7231, $text);
        return $when === false ? null : max(0.0, $when->getTimestamp() - $now);
    }

    /** @return array<string, mixed>|null */
    private static function decodeObject(string $raw): ?array
    {
        if ($raw === '') {
            return null;
        }
        try {
            $value = json_decode($raw, false, 64, JSON_THROW_ON_ERROR);
        } catch (\JsonException) {
            return null;
        }
        return $value instanceof \stdClass ? json_decode($raw, true) : null;
    }

    private static function baseUrl(string $value, string $name): string
    {
        $scheme = parse_url($value, PHP_URL_SCHEME);
        $host = parse_url($value, PHP_URL_HOST);
        if (($scheme !== 'http' && $scheme !== 'https') || !is_string($host) || $host === '') {
            throw new \InvalidArgumentException("{$name} must be an absolute http(s) URL, got " . json_encode($value));
        }
        return rtrim($value, '/');
    }

    private static function requireNonEmpty(string $value, string $name): void
    {
        if ($value === '') {
            throw new \InvalidArgumentException("{$name} must be a non-empty string");
        }
    }
}
