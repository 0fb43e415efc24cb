<?php

declare(strict_types=1);

// Composer's autoloader when `composer install` ran; otherwise the PSR-4 map by hand and
// Debian's phpseclib 3 (php-phpseclib3), so the suite runs offline with no vendor/ at all.
if (is_file(__DIR__ . '/../vendor/autoload.php')) {
    require __DIR__ . '/../vendor/autoload.php';
    return;
}
require_once '/usr/share/php/phpseclib3/autoload.php';
spl_autoload_register(static function (string $class): void {
    foreach (['Svc\\PartnerSdk\\Tests\\' => __DIR__ . '/', 'Svc\\PartnerSdk\\' => __DIR__ . '/../src/'] as $prefix => $dir) {
        if (str_starts_with($class, $prefix)) {
            $file = $dir . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
            if (is_file($file)) {
                require $file;
            }
            return;
        }
    }
});
