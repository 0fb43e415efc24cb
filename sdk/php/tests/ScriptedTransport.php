<?php

declare(strict_types=1);

namespace Svc\PartnerSdk\Tests;

use Svc\PartnerSdk\Transport\NetworkException;
use Svc\PartnerSdk\Transport\Response;
use Svc\PartnerSdk\Transport\Transport;

/** Answers from a script, and remembers what it was sent: the retry rules without waiting. */
final class ScriptedTransport implements Transport
{
    /** @var list<array{method: string, url: string, headers: array<string, string>, body: ?string}> */
    public array $seen = [];

    /** @param list<Response|null> $answers null: no answer (a network failure) */
    public function __construct(private array $answers)
    {
    }

    public function send(string $method, string $url, array $headers, ?string $body, float $timeoutSeconds): Response
    {
        $this->seen[] = ['method' => $method, 'url' => $url, 'headers' => $headers, 'body' => $body];
        $answer = array_shift($this->answers);
        if ($answer === null) {
            throw new NetworkException('connection refused');
        }
        return $answer;
    }
}
