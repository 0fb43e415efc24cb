<?php

declare(strict_types=1);

namespace Svc\PartnerSdk\Tests;

use PHPUnit\Framework\Assert;
use Svc\PartnerSdk\SvcException;

/** The repository's known-answer files, the live service's description, and a refusal's code. */
final class Fixtures
{
    /** @return mixed */
    public static function json(string $relative)
    {
        return json_decode((string) file_get_contents(__DIR__ . '/../../../fixtures/' . $relative), true, 512, JSON_THROW_ON_ERROR);
    }

    /** @return array<string, mixed> written by scripts/sdk-polyglot.test.ts, which started the service */
    public static function live(): array
    {
        $path = getenv('SVC_SDK_LIVE');
        if ($path === false || $path === '') {
            Assert::fail('SVC_SDK_LIVE is unset: run these through scripts/sdk-polyglot.test.ts, which starts the service');
        }
        return json_decode((string) file_get_contents($path), true, 512, JSON_THROW_ON_ERROR);
    }

    public static function refusal(callable $call): string
    {
        try {
            $call();
        } catch (SvcException $error) {
            return $error->errorCode;
        }
        return 'accepted';
    }

    public static function b64url(string $bytes): string
    {
        return rtrim(strtr(base64_encode($bytes), '+/', '-_'), '=');
    }

    public static function unb64url(string $text): string
    {
        return (string) base64_decode(strtr($text, '-_', '+/'), true);
    }
}
