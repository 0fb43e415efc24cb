<?php

declare(strict_types=1);

namespace Svc\PartnerSdk;

/**
 * The one exception of the SDK: a failed call or a refused attestation.
 *
 * `errorCode` (also `getCode()`, a string as PDOException's) is the service's catalogue code
 * (`GRANT_INVALID`, `INVALID_SIGNATURE`, …), the SDK's own `NETWORK_ERROR` (status 0) or
 * `INVALID_RESPONSE`, or for an attestation refused offline one of `MALFORMED`, `UNKNOWN_KEY`,
 * `BAD_SIGNATURE`, `EXPIRED`, `WRONG_AUDIENCE`, `WRONG_APP`, `WRONG_ORIGIN`, `KEYS_UNAVAILABLE`,
 * `WRONG_METADATA`, `WRONG_CONTEXT`, `REUSED` (status 0).
 */
final class SvcException extends \RuntimeException
{
    public function __construct(
        public readonly string $errorCode,
        string $message,
        public readonly int $status = 0,
        /** Retry-After of the last answer, in seconds, when it had one */
        public readonly ?int $retryAfter = null,
        /** X-SVC-CID of the failed answer: quote it to support */
        public readonly ?string $cid = null,
        public readonly int $attempts = 1,
    ) {
        parent::__construct($message);
        $this->code = $errorCode;
    }

    /** True for 429, 5xx and network failures: the SDK already retried those (3 attempts in all). */
    public function isRetryable(): bool
    {
        return $this->errorCode === 'NETWORK_ERROR' || ($this->status !== 0 && self::isRetryableStatus($this->status));
    }

    public static function isRetryableStatus(int $status): bool
    {
        return $status === 0 || $status === 429 || $status >= 500;
    }
}
