<?php

/**
 * A partner backend in plain PHP (the built-in server, no framework) with svc/partner-sdk.
 *
 *     SVC_API_URL=http://localhost:8787 SVC_PARTNER_ID=pk_test_demo \
 *     SVC_PARTNER_SECRET=BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc= \
 *     php -S localhost:8788 examples/php/index.php        # then open http://localhost:8788/
 *
 * The page shows the widget; on success the widget sends the visitor to /success#grant_code=…,
 * whose script posts the code here; this backend exchanges it (server to server, signed) and
 * keeps only the pass token in the PHP session, which it introspects on /account.
 */

declare(strict_types=1);

// Composer's autoloader in an app (`composer require svc/partner-sdk`); here, the SDK's test bootstrap.
require __DIR__ . '/../../sdk/php/tests/bootstrap.php';

use Svc\PartnerSdk\PartnerClient;
use Svc\PartnerSdk\SvcException;

$apiUrl = getenv('SVC_API_URL') ?: 'http://localhost:8787';
$svc = new PartnerClient($apiUrl, (string) getenv('SVC_PARTNER_ID'), (string) getenv('SVC_PARTNER_SECRET'));
$loader = sprintf(
    '<script src="%s/v4/loader.min.js" data-partner-id="%s" data-success-path="/success" data-locale="en"></script>',
    htmlspecialchars($apiUrl),
    htmlspecialchars($svc->partnerId),
);
session_start(['cookie_httponly' => true, 'cookie_samesite' => 'Lax']);
$path = parse_url($_SERVER['REQUEST_URI'] ?? '/', PHP_URL_PATH);

function json_answer(int $status, array $body): void
{
    http_response_code($status);
    header('Content-Type: application/json');
    echo json_encode($body);
}

if ($path === '/' && $_SERVER['REQUEST_METHOD'] === 'GET') {
    echo "<!doctype html><html lang=\"en\"><meta charset=\"utf-8\"><title>Shop</title><h1>Check your age</h1><div id=\"svc-widget\"></div>{$loader}";
} elseif ($path === '/success') {
    echo <<<HTML
        <!doctype html><html lang="en"><meta charset="utf-8"><title>Verified</title><p id="out">Checking…</p>{$loader}
        <script>
        fetch('/api/age/exchange', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(SVC.consumeResult()) })
          .then((r) => r.json()).then((b) => { document.getElementById('out').textContent = b.adult ? 'Verified: 18+' : 'Not verified'; });
        </script>
        HTML;
} elseif ($path === '/api/age/exchange' && $_SERVER['REQUEST_METHOD'] === 'POST') {
    $body = json_decode((string) file_get_contents('php://input'), true);
    $code = is_array($body) ? ($body['grant_code'] ?? null) : null;
    if (!is_string($code) || !str_starts_with($code, 'g_')) {
        json_answer(400, ['error' => 'no grant code']);
        return;
    }
    try {
        $grant = $svc->exchange($code);
    } catch (SvcException $e) { // GRANT_INVALID: used, expired or not ours → verify again
        error_log("svc {$e->errorCode} (cid {$e->cid})"); // the code, never the grant
        json_answer($e->errorCode === 'GRANT_INVALID' ? 409 : 502, ['error' => $e->errorCode]);
        return;
    }
    session_regenerate_id(true);
    $_SESSION['pass_token'] = $grant['pass_token'];
    json_answer(200, ['adult' => ($grant['age_over_18'] ?? false) === true]);
} elseif ($path === '/account') {
    $token = $_SESSION['pass_token'] ?? null;
    $state = is_string($token) ? $svc->introspect($token) : ['active' => false];
    json_answer(200, ['verified' => $state['active']]);
} else {
    json_answer(404, ['error' => 'not found']);
}
