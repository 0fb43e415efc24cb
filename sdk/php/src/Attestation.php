<?php

declare(strict_types=1);

namespace Svc\PartnerSdk;

use phpseclib3\Crypt\PublicKeyLoader;
use phpseclib3\Crypt\RSA;

/**
 * Offline checks of the two ADULT_BLIND attestations (docs/adult-blind.md#verifying-offline and
 * #checking-a-private-attestation), with exactly the checks of the TypeScript SDK
 * (server/sdk/attestation.ts, server/sdk/private-attestation.ts): Ed25519 with ext-sodium,
 * RSASSA-PSS with phpseclib 3. Every refusal is an SvcException (status 0) with its code.
 */
final class Attestation
{
    public const TYP = 'svc-attestation+jwt';
    public const AUDIENCE = 'svc-attestation';
    /** RFC 9578 §8.2 */
    public const TOKEN_TYPE = 0x0002;
    private const MAX_ATTESTATION_LENGTH = 8192;
    private const TOKEN_INPUT_LENGTH = 2 + 32 + 32 + 32;
    private const TOKEN_LENGTH = self::TOKEN_INPUT_LENGTH + 256;
    private const B64URL = '/^[A-Za-z0-9_-]+$/';
    private const MAX_SAFE = 9007199254740991;

    /**
     * Verifies an ADULT_BLIND attestation offline. `$jwks` is the key set of
     * GET {app_url}/api/billing/attestation-keys as an array, or an AttestationKeys that fetches
     * and caches it. The key is chosen by kid; typ, alg, aud, app_id, origin_hash, ver and exp
     * are checked.
     *
     * @param array{keys?: mixed}|AttestationKeys $jwks
     */
    public static function verifyAttestation(string $token, array|AttestationKeys $jwks, string $appId, string $origin, ?float $now = null): VerifiedAttestation
    {
        [$header, $signingInput, $payloadPart, $signature] = self::splitCompact($token);
        if (($header['typ'] ?? null) !== self::TYP) {
            throw self::fail('MALFORMED', 'typ must be ' . self::TYP);
        }
        $kid = $header['kid'] ?? null;
        if (!is_string($kid) || $kid === '') {
            throw self::fail('MALFORMED', 'kid is missing');
        }
        if ($jwks instanceof AttestationKeys) {
            $jwks = $jwks->forKid($kid);
        }
        if (!is_array($jwks['keys'] ?? null)) {
            throw self::fail('KEYS_UNAVAILABLE', 'key set has no keys array');
        }
        $jwk = null;
        foreach ($jwks['keys'] as $candidate) {
            if (is_array($candidate) && ($candidate['kid'] ?? null) === $kid) {
                $jwk = $candidate;
                break;
            }
        }
        if ($jwk === null) {
            throw self::fail('UNKNOWN_KEY', 'no key with kid ' . substr($kid, 0, 64) . ' in the given key set');
        }
        $publicKey = self::ed25519Key($jwk);
        if (($header['alg'] ?? null) !== 'EdDSA') {
            throw self::fail('MALFORMED', 'alg must be EdDSA');
        }
        if (strlen($signature) !== SODIUM_CRYPTO_SIGN_BYTES || !sodium_crypto_sign_verify_detached($signature, $signingInput, $publicKey)) {
            throw self::fail('BAD_SIGNATURE', 'signature does not verify');
        }
        $claims = self::decodeObject(self::b64urlDecode($payloadPart), 'payload');
        $exp = $claims['exp'] ?? null;
        $mask = $claims['scope_mask'] ?? null;
        $jti = $claims['jti'] ?? null;
        $nullifier = $claims['nullifier'] ?? null;
        if (!self::isInt($exp) || !self::isInt($mask) || $mask < 0 || !is_string($jti) || !is_string($nullifier)) {
            throw self::fail('MALFORMED', 'exp, scope_mask, jti or nullifier has the wrong type');
        }
        if (($claims['ver'] ?? null) !== '1') {
            throw self::fail('MALFORMED', 'unknown payload version');
        }
        if ($exp <= (int) floor($now ?? microtime(true))) {
            throw self::fail('EXPIRED', 'attestation has expired');
        }
        if (($claims['aud'] ?? null) !== self::AUDIENCE) {
            throw self::fail('WRONG_AUDIENCE', 'aud must be ' . self::AUDIENCE);
        }
        if (($claims['app_id'] ?? null) !== $appId) {
            throw self::fail('WRONG_APP', 'attestation was made for another app');
        }
        if (($claims['origin_hash'] ?? null) !== self::computeOriginHash($origin)) {
            throw self::fail('WRONG_ORIGIN', 'attestation was made for another origin');
        }
        return new VerifiedAttestation(
            ($mask & 1) === 1,
            ($mask & 2) === 2,
            ($mask & 4) === 4,
            ($mask & 8) === 8,
            $nullifier,
            $jti,
            $exp,
        );
    }

    /**
     * Three base64url parts and a valid Ed25519 signature over part1.part2; checks no claim.
     * Known-answer tested with RFC 8037 A.4.
     *
     * @param array<string, mixed> $jwk
     * @return array{0: array<string, mixed>, 1: string} the header and the raw payload
     */
    public static function verifyCompactEd25519(string $jws, array $jwk): array
    {
        [$header, $signingInput, $payloadPart, $signature] = self::splitCompact($jws);
        $publicKey = self::ed25519Key($jwk);
        if (($header['alg'] ?? null) !== 'EdDSA') {
            throw self::fail('MALFORMED', 'alg must be EdDSA');
        }
        if (strlen($signature) !== SODIUM_CRYPTO_SIGN_BYTES || !sodium_crypto_sign_verify_detached($signature, $signingInput, $publicKey)) {
            throw self::fail('BAD_SIGNATURE', 'signature does not verify');
        }
        return [$header, self::b64urlDecode($payloadPart)];
    }

    /**
     * Verifies a private attestation `<base64url token>.<base64url metadata>` offline. In order:
     * its shape (RFC 9578 token type 0x0002), the key by token_key_id (and that its public key
     * hashes to that id), the metadata the key signs for, the challenge (issuer_name and this
     * page's redemption context), the RSASSA-PSS SHA-384 signature (salt 48), then, if given,
     * `$consumeContext(base64url context)`: true the first time, false for a context already
     * used (REUSED). `$keys` is GET {app_url}/api/billing/private-attestation-keys.
     *
     * @param string $redemptionContext 43 base64url characters, or the 32 raw bytes
     * @param array{issuer_name?: mixed, keys?: mixed} $keys
     * @param null|callable(string): bool $consumeContext
     */
    public static function verifyPrivateAttestation(
        string $attestation,
        string $redemptionContext,
        array $keys,
        ?callable $consumeContext = null,
    ): VerifiedPrivateAttestation {
        $context = self::contextBytes($redemptionContext);
        if (strlen($attestation) > 1024) {
            throw self::fail('MALFORMED', 'not a string of sane length');
        }
        $parts = explode('.', $attestation);
        if (count($parts) !== 2 || preg_match(self::B64URL, $parts[0]) !== 1 || preg_match(self::B64URL, $parts[1]) !== 1) {
            throw self::fail('MALFORMED', 'not <token>.<metadata> in base64url');
        }
        $token = self::b64urlDecode($parts[0]);
        if (strlen($token) !== self::TOKEN_LENGTH) {
            throw self::fail('MALFORMED', 'token is ' . strlen($token) . ' bytes, not ' . self::TOKEN_LENGTH);
        }
        $tokenType = unpack('n', $token)[1];
        if ($tokenType !== self::TOKEN_TYPE) {
            throw self::fail('MALFORMED', "token_type {$tokenType}");
        }
        [$mask, $epoch] = self::readMetadata($parts[1]);

        $challengeDigest = substr($token, 34, 32);
        $tokenKeyId = substr($token, 66, 32);
        $key = null;
        foreach (is_array($keys['keys'] ?? null) ? $keys['keys'] : [] as $candidate) {
            $id = is_array($candidate) ? ($candidate['token_key_id'] ?? null) : null;
            if (($candidate['token_type'] ?? null) === self::TOKEN_TYPE && is_string($id) && preg_match(self::B64URL, $id) === 1
                && hash_equals(self::b64urlDecode($id), $tokenKeyId)) {
                $key = $candidate;
                break;
            }
        }
        if ($key === null) {
            throw self::fail('UNKNOWN_KEY', 'no published key has this token_key_id');
        }
        $der = is_string($key['public_key'] ?? null) && preg_match(self::B64URL, $key['public_key']) === 1
            ? self::b64urlDecode($key['public_key']) : '';
        if (!hash_equals(hash('sha256', $der, true), $tokenKeyId)) {
            throw self::fail('UNKNOWN_KEY', 'the key set lists a public_key that does not hash to its token_key_id');
        }
        if (($key['scope_mask'] ?? null) !== $mask || ($key['epoch'] ?? null) !== $epoch) {
            throw self::fail('WRONG_METADATA', 'the metadata is not the one the token key signs for');
        }
        if (!is_string($keys['issuer_name'] ?? null)) {
            throw self::fail('MALFORMED', 'the key set has no issuer_name');
        }
        $expected = hash('sha256', self::serializeTokenChallenge($keys['issuer_name'], $context), true);
        if (!hash_equals($expected, $challengeDigest)) {
            throw self::fail('WRONG_CONTEXT', 'the token was made for another redemption context or issuer');
        }
        $publicKey = self::rsaPublicKey($der);
        $pss = $publicKey->withPadding(RSA::SIGNATURE_PSS)->withHash('sha384')->withMGFHash('sha384')->withSaltLength(48);
        if (!$pss->verify(substr($token, 0, self::TOKEN_INPUT_LENGTH), substr($token, self::TOKEN_INPUT_LENGTH))) {
            throw self::fail('BAD_SIGNATURE', 'the signature does not verify');
        }
        if ($consumeContext !== null && $consumeContext(Signing::base64url($context)) !== true) {
            throw self::fail('REUSED', 'this redemption context was already used');
        }
        return new VerifiedPrivateAttestation(($mask & 1) === 1, ($mask & 2) === 2, ($mask & 4) === 4, $mask, $epoch, $key['token_key_id']);
    }

    /**
     * The RSA public key of a SubjectPublicKeyInfo, id-RSASSA-PSS (as RFC 9578 keys are, and the
     * service publishes) or rsaEncryption. phpseclib 3.0.19 (Debian 12) parses an id-RSASSA-PSS
     * SubjectPublicKeyInfo but hands it back as a private key object, so its modulus and exponent
     * are loaded as the public key they are.
     */
    private static function rsaPublicKey(string $der): RSA\PublicKey
    {
        try {
            $key = PublicKeyLoader::loadPublicKey($der);
            if ($key instanceof RSA\PublicKey) {
                return $key;
            }
        } catch (\Throwable) {
            // not rsaEncryption: try id-RSASSA-PSS below
        }
        try {
            $parsed = RSA\Formats\Keys\PSS::load($der);
        } catch (\Throwable) {
            throw self::fail('UNKNOWN_KEY', 'public_key is not an RSA SubjectPublicKeyInfo');
        }
        if (isset($parsed['privateExponent']) || !isset($parsed['modulus'], $parsed['publicExponent'])) {
            throw self::fail('UNKNOWN_KEY', 'public_key is not an RSA SubjectPublicKeyInfo');
        }
        if (($parsed['hash'] ?? 'sha384') !== 'sha384' || ($parsed['MGFHash'] ?? 'sha384') !== 'sha384') {
            throw self::fail('UNKNOWN_KEY', 'public_key is an RSA-PSS key for another hash than SHA-384');
        }
        $key = RSA::loadFormat('Raw', ['n' => $parsed['modulus'], 'e' => $parsed['publicExponent']]);
        if (!$key instanceof RSA\PublicKey) {
            throw self::fail('UNKNOWN_KEY', 'public_key is not an RSA SubjectPublicKeyInfo');
        }
        return $key;
    }

    /** RFC 9577 §2.1 TokenChallenge for token type 0x0002, with an empty origin_info. */
    public static function serializeTokenChallenge(string $issuerName, string $redemptionContext): string
    {
        if (strlen($issuerName) < 1 || strlen($issuerName) > 0xffff) {
            throw new \InvalidArgumentException('issuer_name must be 1 to 65535 bytes');
        }
        if (strlen($redemptionContext) !== 0 && strlen($redemptionContext) !== 32) {
            throw new \InvalidArgumentException('redemption_context must be empty or 32 bytes');
        }
        return pack('nn', self::TOKEN_TYPE, strlen($issuerName)) . $issuerName . chr(strlen($redemptionContext)) . $redemptionContext . "\x00\x00";
    }

    /** origin_hash as the service computes it: base64url (no padding) of SHA-256 over the ASCII origin. */
    public static function computeOriginHash(string $origin): string
    {
        return Signing::base64url(hash('sha256', $origin, true));
    }

    /**
     * GET {app_url}/api/billing/attestation-keys (cache ≤ 1 h).
     *
     * @return array<string, mixed>
     */
    public static function fetchAttestationKeys(string $appUrl, float $timeout = 10.0): array
    {
        return self::fetchKeySet(rtrim($appUrl, '/') . '/api/billing/attestation-keys', $timeout);
    }

    /**
     * GET {app_url}/api/billing/private-attestation-keys (cache ≤ 1 h).
     *
     * @return array<string, mixed>
     */
    public static function fetchPrivateAttestationKeys(string $appUrl, float $timeout = 10.0): array
    {
        return self::fetchKeySet(rtrim($appUrl, '/') . '/api/billing/private-attestation-keys', $timeout);
    }

    /** @return array<string, mixed> */
    private static function fetchKeySet(string $url, float $timeout): array
    {
        try {
            $answer = (new Transport\CurlTransport())->send('GET', $url, ['Accept' => 'application/json'], null, $timeout);
        } catch (Transport\NetworkException $error) {
            throw self::fail('KEYS_UNAVAILABLE', "fetching {$url} failed ({$error->getMessage()})");
        }
        if ($answer->status !== 200) {
            throw self::fail('KEYS_UNAVAILABLE', "fetching {$url} answered HTTP {$answer->status}");
        }
        $body = json_decode($answer->body, true);
        if (!is_array($body) || !is_array($body['keys'] ?? null)) {
            throw self::fail('KEYS_UNAVAILABLE', 'key set has no keys array');
        }
        return $body;
    }

    /** @return array{0: array<string, mixed>, 1: string, 2: string, 3: string} */
    private static function splitCompact(string $jws): array
    {
        if (strlen($jws) > self::MAX_ATTESTATION_LENGTH) {
            throw self::fail('MALFORMED', 'not a string of sane length');
        }
        $parts = explode('.', $jws);
        if (count($parts) !== 3) {
            throw self::fail('MALFORMED', 'expected 3 parts, got ' . count($parts));
        }
        foreach ($parts as $part) {
            if (preg_match(self::B64URL, $part) !== 1) {
                throw self::fail('MALFORMED', 'a part is empty or not base64url');
            }
        }
        $header = self::decodeObject(self::b64urlDecode($parts[0]), 'header');
        if (array_key_exists('crit', $header)) {
            throw self::fail('MALFORMED', 'crit header parameters are not understood');
        }
        return [$header, "{$parts[0]}.{$parts[1]}", $parts[1], self::b64urlDecode($parts[2])];
    }

    /** @param array<string, mixed> $jwk */
    private static function ed25519Key(array $jwk): string
    {
        $x = $jwk['x'] ?? null;
        if (($jwk['kty'] ?? null) !== 'OKP' || ($jwk['crv'] ?? null) !== 'Ed25519' || !is_string($x) || preg_match('/^[A-Za-z0-9_-]{43}$/', $x) !== 1) {
            throw self::fail('UNKNOWN_KEY', 'key is not an Ed25519 public key');
        }
        if (($jwk['use'] ?? 'sig') !== 'sig' || ($jwk['alg'] ?? 'EdDSA') !== 'EdDSA') {
            throw self::fail('UNKNOWN_KEY', 'key is not meant for EdDSA signatures');
        }
        return self::b64urlDecode($x);
    }

    /** @return array{0: int, 1: string} */
    private static function readMetadata(string $part): array
    {
        $metadata = self::decodeObject(self::b64urlDecode($part), 'metadata');
        if (array_diff(array_keys($metadata), ['scope_mask', 'epoch']) !== []) {
            throw self::fail('MALFORMED', 'metadata has members other than scope_mask and epoch');
        }
        $mask = $metadata['scope_mask'] ?? null;
        $epoch = $metadata['epoch'] ?? null;
        if (!is_int($mask) || $mask < 0 || $mask > 15) {
            throw self::fail('MALFORMED', 'scope_mask is not an integer from 0 to 15');
        }
        if (!is_string($epoch) || preg_match('/^\d{4}-\d{2}-\d{2}$/D', $epoch) !== 1) {
            throw self::fail('MALFORMED', 'epoch is not a UTC date');
        }
        return [$mask, $epoch];
    }

    private static function contextBytes(string $context): string
    {
        if (strlen($context) === 43 && preg_match(self::B64URL, $context) === 1) {
            $bytes = self::b64urlDecode($context);
        } else {
            $bytes = $context;
        }
        if (strlen($bytes) !== 32) {
            throw new \InvalidArgumentException('redemptionContext must be 32 bytes (43 base64url characters, or the raw bytes)');
        }
        return $bytes;
    }

    /** A JSON object as an array; a JSON array, scalar or bad JSON is MALFORMED. @return array<string, mixed> */
    private static function decodeObject(string $raw, string $what): array
    {
        try {
            $value = json_decode($raw, false, 32, JSON_THROW_ON_ERROR);
        } catch (\JsonException) {
            throw self::fail('MALFORMED', "{$what} is not base64url JSON");
        }
        if (!$value instanceof \stdClass) {
            throw self::fail('MALFORMED', "{$what} is not an object");
        }
        return json_decode($raw, true);
    }

    private static function b64urlDecode(string $part): string
    {
        $bytes = base64_decode(strtr($part, '-_', '+/'), true);
        if ($bytes === false) {
            throw self::fail('MALFORMED', 'not base64url');
        }
        return $bytes;
    }

    private static function isInt(mixed $value): bool
    {
        return is_int($value) && $value >= -self::MAX_SAFE && $value <= self::MAX_SAFE;
    }

    private static function fail(string $code, string $message): SvcException
    {
        return new SvcException($code, $message);
    }
}
