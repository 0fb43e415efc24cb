<?php

declare(strict_types=1);

namespace Svc\PartnerSdk;

/**
 * The published JWS key set, fetched on demand as docs/adult-blind.md#verifying-offline asks: kept
 * at most an hour, fetched once more when an attestation names a kid it does not hold (a key
 * announced since), but not more than once every 30 s (no fetch storm from forged kids). Keep one
 * per worker (or put its key set in your cache), and pass it where a key set goes:
 *
 *     Attestation::verifyAttestation($token, new AttestationKeys('https://svc.example'), $appId, $origin);
 */
final class AttestationKeys
{
    public const MAX_AGE = 3600.0;
    public const UNKNOWN_KID_COOLDOWN = 30.0;

    /** @var array<string, mixed>|null */
    private ?array $jwks = null;
    private float $fetchedAt = 0.0;
    public int $fetches = 0;
    /** @var callable(): float */
    private $clock;

    /** @param null|callable(): float $clock Unix seconds */
    public function __construct(public readonly string $appUrl, ?callable $clock = null, private readonly float $timeout = 10.0)
    {
        $this->clock = $clock ?? static fn (): float => microtime(true);
    }

    /** @return array<string, mixed> a key set holding $kid when one can be had; the current one otherwise */
    public function forKid(string $kid): array
    {
        $now = ($this->clock)();
        if ($this->jwks === null || $now - $this->fetchedAt >= self::MAX_AGE || $now < $this->fetchedAt) {
            return $this->fetch($now);
        }
        foreach ($this->jwks['keys'] as $key) {
            if (is_array($key) && ($key['kid'] ?? null) === $kid) {
                return $this->jwks;
            }
        }
        return $now - $this->fetchedAt >= self::UNKNOWN_KID_COOLDOWN ? $this->fetch($now) : $this->jwks;
    }

    /** @return array<string, mixed> */
    private function fetch(float $now): array
    {
        $this->jwks = Attestation::fetchAttestationKeys($this->appUrl, $this->timeout);
        $this->fetchedAt = $now;
        $this->fetches++;
        return $this->jwks;
    }
}
