<?php

declare(strict_types=1);

namespace Svc\PartnerSdk;

/** A billing session token: for the loader's `data-session-token`, this page load only. */
final class Session
{
    public function __construct(
        public readonly string $token,
        /** seconds; always 300 */
        public readonly int $expiresIn,
    ) {
    }
}
