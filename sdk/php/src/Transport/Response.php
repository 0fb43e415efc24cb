<?php

declare(strict_types=1);

namespace Svc\PartnerSdk\Transport;

/** One HTTP answer: the status, the headers (names in lower case) and the body. */
final class Response
{
    /** @param array<string, string> $headers lower-case names */
    public function __construct(
        public readonly int $status,
        public readonly array $headers,
        public readonly string $body,
    ) {
    }

    public function header(string $name): ?string
    {
        return $this->headers[strtolower($name)] ?? null;
    }
}
