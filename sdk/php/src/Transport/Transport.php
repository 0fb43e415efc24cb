<?php

declare(strict_types=1);

namespace Svc\PartnerSdk\Transport;

/** Sends one request. CurlTransport is built in; Psr18Transport wraps any PSR-18 client. */
interface Transport
{
    /**
     * @param array<string, string> $headers
     * @throws NetworkException when no answer came
     */
    public function send(string $method, string $url, array $headers, ?string $body, float $timeoutSeconds): Response;
}
