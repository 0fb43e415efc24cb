<?php

declare(strict_types=1);

namespace Svc\PartnerSdk;

/** HMAC-SHA256 request signing, exactly as docs/partner-api.md#signing-with-a-worked-example says. */
final class Signing
{
    public static function base64url(string $bytes): string
    {
        return rtrim(strtr(base64_encode($bytes), '+/', '-_'), '=');
    }

    /** Step 1: base64url (no padding) of SHA-256 over the exact bytes of the body. */
    public static function hashBody(string $body): string
    {
        return self::base64url(hash('sha256', $body, true));
    }

    /** Step 2: bodyHash.timestamp.partnerId.nonce, in this order. */
    public static function canonicalString(string $bodyHash, string $timestamp, string $partnerId, string $nonce): string
    {
        return "{$bodyHash}.{$timestamp}.{$partnerId}.{$nonce}";
    }

    /** Steps 3–4: base64url (no padding) of HMAC-SHA256 keyed with the base64-*decoded* secret. */
    public static function computeSignature(string $secretBase64, string $canonical): string
    {
        $key = base64_decode(strtr($secretBase64, '-_', '+/'), true);
        if ($key === false) {
            throw new \InvalidArgumentException('secret must be the base64 Partner Secret as issued');
        }
        return self::base64url(hash_hmac('sha256', $canonical, $key, true));
    }

    /**
     * The five headers of one signed request; `$body` is the exact text sent ('' for a GET).
     *
     * @return array<string, string>
     */
    public static function signRequest(
        string $partnerId,
        string $secret,
        string $body,
        ?int $timestamp = null,
        ?string $nonce = null,
    ): array {
        $ts = (string) ($timestamp ?? time());
        $nonce ??= self::uuid4();
        $signature = self::computeSignature($secret, self::canonicalString(self::hashBody($body), $ts, $partnerId, $nonce));
        return [
            'Content-Type' => 'application/json',
            'X-Partner-ID' => $partnerId,
            'X-Partner-Timestamp' => $ts,
            'X-Partner-Nonce' => $nonce,
            'X-Partner-Signature' => $signature,
        ];
    }

    public static function uuid4(): string
    {
        $bytes = random_bytes(16);
        $bytes[6] = chr((ord($bytes[6]) & 0x0f) | 0x40);
        $bytes[8] = chr((ord($bytes[8]) & 0x3f) | 0x80);
        return vsprintf('%s%s-%s-%s-%s-%s%s%s', str_split(bin2hex($bytes), 4));
    }
}
