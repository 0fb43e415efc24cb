<?php

declare(strict_types=1);

namespace Svc\PartnerSdk;

/** What a verified JWS attestation proves (its scope_mask bits), and what a partner may keep. */
final class VerifiedAttestation
{
    public function __construct(
        /** bit 0: of legal age */
        public readonly bool $adult,
        /** bit 1: French nationality */
        public readonly bool $french,
        /** bit 2: EU citizen */
        public readonly bool $eu,
        /** bit 3: the nullifier identifies this person on this app */
        public readonly bool $unique,
        public readonly string $nullifier,
        /** remember it until exp to refuse a replayed attestation */
        public readonly string $jti,
        /** Unix seconds */
        public readonly int $exp,
    ) {
    }
}
