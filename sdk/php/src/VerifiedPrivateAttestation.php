<?php

declare(strict_types=1);

namespace Svc\PartnerSdk;

/** What a verified private attestation proves; `adult` is always set (issued only for isAdult). */
final class VerifiedPrivateAttestation
{
    public function __construct(
        public readonly bool $adult,
        public readonly bool $french,
        public readonly bool $eu,
        public readonly int $scopeMask,
        /** the UTC date the signing key set was made */
        public readonly string $epoch,
        public readonly string $tokenKeyId,
    ) {
    }
}
